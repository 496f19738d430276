import type { z } from 'zod';
import type { SectionId } from '@portico/contract/sections';
import { terminalText } from '@portico/platform/command-line';
import {
  type AnswerOf,
  deliverable,
  DELIVERABLE_EN,
  type alertsAnswerSchema,
  type CONTROL_API,
  type judgedSchema,
  type shownReleaseSchema,
} from '@portico/control-contract';
import { CONFIG_BASELINE, type ReleaseHealth } from '../release';

// What `npm run release` prints of the control API's answers: tables and
// lines for the operator's terminal, every field from the server escaped.

/**
 * Text from the server for the operator's terminal: a manifest's build id
 * or a note is someone else's input, and an escape sequence or a bidi
 * control in it could rewrite or reorder the screen. Each field is escaped
 * on its own (a line break in a note must not start a line of the table);
 * everything printed is escaped once more on its way out.
 */
export const printable = (text: string | null | undefined) => terminalText(text);

/** Columns padded to their widest cell, the last one left as it is. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => printable(row[column]).length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, column) => (column === row.length - 1 ? printable(cell) : printable(cell).padEnd(widths[column]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** `2026-05-01 09:00 UTC`: minutes are enough to tell activations apart by eye. */
export const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '');

/** The build id, and the version only when it says something (every build says 1.0.0 today). */
export const buildOf = (release: Pick<ShownRelease, 'buildId' | 'version'>) =>
  release.version === '1.0.0' ? release.buildId : `${release.buildId} (version ${release.version})`;

export const named = (release: ShownRelease | null) => (release ? `${release.id} (build ${printable(buildOf(release))})` : 'none');

/** What a section serves now and where a rollback would take it; with no release active, config.json's URL and the release it replaced. */
export function switched(section: string, answer: { active: ShownRelease | null; previous: ShownRelease | null }): string {
  if (!answer.active) return `${section}: back on config.json's URL, no release active${answer.previous ? `; it replaced ${named(answer.previous)}` : ''}`;
  return `${section}: ${named(answer.active)} is active; a rollback would go back to ${answer.previous ? named(answer.previous) : "config.json's URL"}`;
}

const HEALTH_COLUMNS = ['VISITS', 'FAILED', 'LCP P75', 'INP P75', 'CLS P75', 'FAILURES BY CLASS'];

/** A count as it reads: whole counts as they are, the judge's bounded (weighted) ones to a tenth. */
const countOf = (count: number) => (Number.isInteger(count) ? String(count) : count.toFixed(1));

/**
 * A release's health as the status table shows it: visits, failure rate,
 * p75 vitals, failures per class; dashes where nothing was reported. While
 * a canary runs the figures are what its judge counts, and where the
 * reports as received differ, they follow: `62.5 (reported 80)`.
 */
function healthCells(health: ReleaseHealth | undefined): string[] {
  if (!health) return HEALTH_COLUMNS.map(() => '-');
  const ms = (value: number | null) => (value === null ? '-' : `${Math.round(value)} ms`);
  const rate = (figures: Pick<ReleaseHealth, 'visits' | 'failureRate'>) => (figures.visits === 0 ? '-' : `${(figures.failureRate * 100).toFixed(1)} %`);
  const beside = (counted: string, reported: string | undefined) =>
    reported === undefined || reported === counted ? counted : `${counted} (reported ${reported})`;
  const { raw } = health;
  const classes = Object.entries(health.failuresByClass).map(([name, count]) => `${name} ${count}`);
  return [
    beside(countOf(health.visits), raw && countOf(raw.visits)),
    beside(rate(health), raw && rate(raw)),
    beside(ms(health.lcpP75), raw && ms(raw.lcpP75)),
    beside(ms(health.inpP75), raw && ms(raw.inpP75)),
    health.clsP75 === null ? '-' : String(health.clsP75),
    classes.join(', '),
  ];
}

/** A section as `GET /api/sections` and the canary commands answer it. */
type ShownSection = NonNullable<AnswerOf<typeof CONTROL_API.sections.status>[SectionId]>;
/** A release as the API shows it. */
export type ShownRelease = z.output<typeof shownReleaseSchema>;

/** What the judge reads of a canary's release beside its health: its networks, and what the servers saw themselves. */
function judgedCell(judged: z.output<typeof judgedSchema> | undefined): string {
  if (!judged) return '';
  const seen = [
    judged.setAside > 0 ? `SET ASIDE ${judged.setAside}x` : '',
    judged.broken ? `BROKEN: ${judged.broken}` : '',
    judged.renderFailures > 0 ? `render failures ${judged.renderFailures}` : '',
    judged.contactErrors > 0 ? `contact 5xx ${judged.contactErrors}` : '',
  ].filter(Boolean);
  return `judged: ${judged.networks} network${judged.networks === 1 ? '' : 's'}${seen.length > 0 ? `; server: ${seen.join(', ')}` : ''}`;
}

/** The health cells of a release in a canary, the judge's inputs after its failures by class. */
function canaryCells(state: ShownSection, id: string): string[] {
  const cells = healthCells(state.health?.[id]);
  const judged = judgedCell(state.judged?.[id]);
  if (judged) cells[cells.length - 1] = [cells.at(-1), judged].filter((cell) => cell && cell !== '-').join('; ');
  return cells;
}

/** A publish of a URL and bytes published before: the same release, its note its own (a new one is in the audit log). */
export function republishedLine(release: ShownRelease): string {
  const note = release.note === null ? 'no note' : `its note "${release.note}"`;
  return `${release.id} is already published from that URL with those bytes (build ${buildOf(release)}): the same release, with ${note}; a note given now is in the audit log`;
}

/** `status`'s table: each section's active release (or config.json's URL) and its health, its canary's candidate under it. */
export function statusTable(sections: AnswerOf<typeof CONTROL_API.sections.status>): string {
  return table([
    ['SECTION', 'ACTIVE', 'BUILD', 'SINCE', 'BY', ...HEALTH_COLUMNS],
    ...Object.entries(sections)
      .flatMap(([section, state]) => (state ? [[section, state] as const] : []))
      .flatMap(([section, state]) => [
        state.active
          ? [
              section,
              state.active.id,
              `${buildOf(state.active)}${state.active.broken ? ` BROKEN: ${state.active.broken.detail}` : ''}${state.active.setAside ? ` SET ASIDE: ${state.active.setAside.detail}` : ''}`,
              when(state.since),
              state.by ?? '',
              ...(state.candidate ? canaryCells(state, state.active.id) : healthCells(state.health?.[state.active.id])),
            ]
          : [
              section,
              CONFIG_BASELINE,
              state.configured ?? '(no release: the URL in config.json)',
              when(state.since),
              state.by ?? '',
              // A first release's canary is judged against config.json's URL: its figures, beside the candidate's.
              ...(state.candidate ? canaryCells(state, CONFIG_BASELINE) : []),
            ],
        // The candidate under its section, with the share of visits it gets.
        ...(state.candidate && state.canary
          ? [
              [
                '  canary',
                state.candidate.id,
                `${buildOf(state.candidate)}, ${state.percent} % of visits`,
                when(state.canary.startedAt),
                state.canary.startedBy,
                ...canaryCells(state, state.candidate.id),
              ],
            ]
          : []),
      ]),
  ]);
}

/** `audit`'s table, newest first as the API answers. */
export function auditTable(entries: AnswerOf<typeof CONTROL_API.audit.list>): string {
  return table([
    ['AT', 'ACTOR', 'ACTION', 'SECTION', 'RELEASE', 'FROM', 'DETAIL'],
    ...entries.map((entry) => [
      entry.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
      entry.actor,
      entry.action,
      entry.section ?? '',
      // A rollback to no release went back to config.json's URL.
      entry.release ?? (entry.action === 'rollback' ? 'config.json' : ''),
      entry.from ?? '',
      entry.detail,
    ]),
  ]);
}

/**
 * Where alerts go, as `alerts show` and `alerts set` print it, then what can
 * be delivered, in the console's words: a webhook with no secret or an
 * e-mail with no mail server reaches no one, and "saved" alone hid it.
 */
export type AlertSettings = z.output<typeof alertsAnswerSchema>;
export function alertsTable(settings: AlertSettings): string {
  const none = (value: string | number | null) => (value === null ? 'none' : printable(String(value)));
  const settingsTable = table([
    ['WEBHOOK', 'EMAIL', 'FAILURE RATE'],
    [none(settings.webhookUrl), none(settings.email), none(settings.failureRateThreshold)],
  ]);
  return `${settingsTable}What can be delivered:\n${deliverable(settings, DELIVERABLE_EN)
    .lines.map((line) => `  ${printable(line)}\n`)
    .join('')}`;
}
