import { type AnswerOf, CONTROL_API, DEFAULT_RELEASE_POLICY, describePolicy, type ReleasePolicy } from '@portico/control-contract';
import { printable } from './release-output';

// `npm run release -- section …`: the integrator's catalogue of sections
// (sections as data), each word one call of the control API.

export const SECTION_USAGE = `  section add <id> --label en=TEXT --label id=TEXT  adds a section (integrator): its tab in both languages, the
          --origin URL [--origin URL]              origins its releases come from, its place (after a section;
          [--after ID] [--market IN|ID] [--interactive]  last by default), its markets (both by default), its grant
  section set <id> [--label LANG=TEXT] [--origin URL]   changes what it names (--first: places it first; --origin and
          [--after ID | --first] [--market M]      --market replace the list; --policy: as \`policy\` below)
          [--policy publish|canary|activate]
  section hide <id> | section show <id>           takes its tab off every page, or puts it back
  section retire <id>                             retires an added section for good: its canary ends, its tokens and
                                                  preview links stop working, its id is never used again
  policy [section] [publish|canary|activate]      how far a section's own token may take a release alone (integrator):
                                                  publish and preview; and canary; and activate, promote, roll back
                                                  (the default); no level: shows it (no section: every section's)`;

type SectionEntry = AnswerOf<typeof CONTROL_API.sections.add>;

/** What the section command reads of the command line. */
export interface SectionFlags {
  label?: string[];
  origin?: string[];
  after?: string;
  first?: boolean;
  market?: string[];
  interactive?: boolean;
  policy?: string;
  note?: string;
}

/** The calls it makes, through the release command's client (its refusals in the command's words). */
export interface SectionCalls {
  add(body: Record<string, unknown>): Promise<SectionEntry>;
  change(section: string, body: Record<string, unknown>): Promise<SectionEntry>;
  retire(section: string, body: Record<string, unknown>): Promise<SectionEntry>;
  /** Every section the token sees, with its entry (GET /api/sections). */
  list(): Promise<Partial<Record<string, { policy?: ReleasePolicy }>>>;
}

/** `--label en=Calculator --label id=Kalkulator` as `{ en, id }`; a label without `=` is a usage error. */
function labelsOf(typed: readonly string[] | undefined, usage: (message: string) => Error): Record<string, string> | undefined {
  if (typed === undefined) return undefined;
  return Object.fromEntries(
    typed.map((text) => {
      const at = text.indexOf('=');
      if (at <= 0) throw usage(`--label takes LANG=TEXT (en=Calculator), not ${JSON.stringify(text)}`);
      return [text.slice(0, at), text.slice(at + 1)];
    }),
  );
}

/** One line on a section: its labels, place, whether shown, grant, markets and origins. */
function describeSection(entry: SectionEntry): string {
  if (entry.retired) return `${entry.id}: retired by ${entry.retired.by}; its releases and audit stay, and its id is never used again`;
  const place = entry.order === null ? '' : `place ${entry.order + 1} in the nav`;
  return [
    `${entry.id}: ${JSON.stringify(entry.labels.en)} / ${JSON.stringify(entry.labels.id)}`,
    place,
    entry.hidden ? 'hidden' : 'shown',
    entry.interactive ? 'interactive' : 'static',
    `markets ${entry.markets.join(' ')}`,
    `origins ${entry.builtIn ? "config.json's" : entry.origins.join(' ') || 'none'}`,
    `release policy ${entry.policy ?? DEFAULT_RELEASE_POLICY}`,
  ]
    .filter((part) => part !== '')
    .join(', ');
}

/** A section's policy in a line: its name and what its own token may do alone. */
const policyLine = (section: string, policy: ReleasePolicy) => `${section}: release policy ${policy}, its own token may ${describePolicy(policy)}`;

/** `policy [section] [level]`: shows every section's policy or one's, or sets one's (the integrator's, audited as a change of the section). */
async function policyCommand(rest: readonly string[], note: { note?: string }, calls: SectionCalls, usage: (message: string) => Error): Promise<string> {
  const [section, level, ...extra] = rest;
  if (extra.length > 0) throw usage('policy takes [section] [publish|canary|activate]');
  if (level !== undefined) return policyLine(section!, (await calls.change(section!, { policy: level, ...note })).policy ?? DEFAULT_RELEASE_POLICY);
  const sections = Object.entries(await calls.list()).filter(([id]) => section === undefined || id === section);
  if (sections.length === 0) throw usage(`policy: no section ${JSON.stringify(section)} among those this token sees`);
  return sections.map(([id, entry]) => policyLine(id, entry?.policy ?? DEFAULT_RELEASE_POLICY)).join('\n');
}

/** `section <add|set|hide|show|retire> <id> …` (or `policy …`): the line it prints, or a usage error. */
export async function sectionCommand(rest: readonly string[], flags: SectionFlags, calls: SectionCalls, usage: (message: string) => Error): Promise<string> {
  const note = flags.note === undefined ? {} : { note: flags.note };
  // One line per section, each made printable (printable would escape the line breaks between them).
  if (rest[0] === 'policy') return (await policyCommand(rest.slice(1), note, calls, usage)).split('\n').map(printable).join('\n');
  const [action, id, ...extra] = rest;
  if (id === undefined || extra.length > 0) throw usage(`section ${action ?? ''} takes one section id`);
  if (flags.first && flags.after !== undefined) throw usage('section: --after or --first, not both');
  const fields = {
    ...(flags.label === undefined ? {} : { labels: labelsOf(flags.label, usage) }),
    ...(flags.origin === undefined ? {} : { origins: flags.origin }),
    ...(flags.first ? { after: null } : flags.after === undefined ? {} : { after: flags.after }),
    ...(flags.market === undefined ? {} : { markets: flags.market }),
    ...(flags.interactive ? { interactive: true } : {}),
    ...(flags.policy === undefined ? {} : { policy: flags.policy }),
    ...note,
  };
  switch (action) {
    case 'add':
      return printable(describeSection(await calls.add({ id, labels: {}, origins: [], ...fields })));
    case 'set':
      if (Object.keys(fields).length === Object.keys(note).length)
        throw usage('section set: --label, --origin, --after, --first, --market, --interactive or --policy');
      return printable(describeSection(await calls.change(id, fields)));
    case 'hide':
    case 'show':
      return printable(describeSection(await calls.change(id, { hidden: action === 'hide', ...note })));
    case 'retire':
      return printable(describeSection(await calls.retire(id, note)));
    default:
      throw usage(`section ${JSON.stringify(action)}: add, set, hide, show or retire`);
  }
}
