import { MARKETS, type Market } from '@portico/contract/languages';
import {
  BUILT_IN_SECTIONS,
  isBuiltInSection,
  labelsProblems,
  marketsProblem,
  MAX_SHOWN_SECTIONS,
  placeAfter,
  sectionIdProblem,
  type SectionEntry,
  type SectionLabels,
} from '@portico/contract/section-entries';
import type { SectionId } from '@portico/contract/sections';
import type { Database, Sql } from '@portico/platform/database';
import { endCanary } from '../health/counted-reports';
import { DEFAULT_RELEASE_POLICY, describePolicy, type ReleasePolicy, type AuditFacts, type SectionChangeFact } from '@portico/control-contract';
import { recordAudit } from './audit-log';
import { ReleaseError } from './release-error';
import { iso, joined } from './release-rows';
import { announce, lockSectionIn, retiredProblem } from './section-lock';

// Sections as data (issue 48): each section's entry (labels, origins, grant,
// markets, hidden) on its row of release_sections, and the tab order as one
// list beside. Every change takes the catalogue's lock (so two adds, or an
// add and a move, see each other's order) and then the section's row lock
// (so it meets its activations and canary one at a time), is audited and
// announced in one transaction, as an activation is.

/** A section as the catalogue holds it: its entry, its place in the nav (0 first; null once retired) and, once retired, when and by whom. */
export interface CatalogueEntry extends SectionEntry {
  order: number | null;
  /** How far the section's own token may take a release alone (release-policy.ts): the integrator's, never served to a page. */
  policy: ReleasePolicy;
  retired?: { at: string; by: string };
}

/** What an add takes (POST /api/sections). */
export interface SectionInput {
  id: string;
  labels: unknown;
  origins: unknown;
  interactive?: boolean;
  /** null: first; none: last. */
  after?: string | null;
  markets?: unknown;
  /** The integrator's words, in the audit entry. */
  note?: string | null;
}

/** What a change takes (PATCH /api/sections/ID): only what it names changes. */
export interface SectionPatch {
  labels?: unknown;
  origins?: unknown;
  interactive?: boolean;
  after?: string | null;
  markets?: unknown;
  hidden?: boolean;
  policy?: ReleasePolicy;
  note?: string | null;
}

/** An arbitrary constant: the advisory lock every change of the catalogue takes first, then the section's row lock. */
const CATALOGUE_LOCK = 7_140_048;
/** Where the tab order is kept: one list, so a move is one write and two adds never take one place. */
const ORDER_SETTING = 'section-order';
/** Enough for any real section; a list past it is a mistake, not a deployment. */
const MAX_ORIGINS = 20;

interface SectionRow {
  section: string;
  label_en: string | null;
  label_id: string | null;
  origins: string[];
  markets: string[];
  hidden: boolean;
  interactive: boolean | null;
  policy: ReleasePolicy | null;
  added_at: Date | string | null;
  retired_at: Date | string | null;
  retired_by: string | null;
}

const ROW_COLUMNS = 'section, label_en, label_id, origins, markets, hidden, interactive, policy, added_at, retired_at, retired_by';

/** The tab order as stored (live sections, in order), or the built-in one before any change. */
async function orderIn(sql: Sql): Promise<string[]> {
  const [row] = await sql.query<{ value: string }>('SELECT value FROM release_settings WHERE name = $1', [ORDER_SETTING]);
  return row ? (JSON.parse(row.value) as string[]) : BUILT_IN_SECTIONS.map((entry) => entry.id);
}

async function writeOrder(sql: Sql, order: readonly string[]): Promise<void> {
  await sql.query('INSERT INTO release_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value', [
    ORDER_SETTING,
    JSON.stringify(order),
  ]);
}

function entryOf(row: SectionRow | undefined, builtIn: SectionEntry | undefined): Omit<CatalogueEntry, 'order'> {
  const id = (row?.section ?? builtIn!.id) as SectionId;
  const labels: SectionLabels = { en: row?.label_en ?? builtIn?.labels.en ?? id, id: row?.label_id ?? builtIn?.labels.id ?? id };
  const entry: Omit<CatalogueEntry, 'order'> = {
    id,
    labels,
    origins: row?.origins ?? builtIn?.origins ?? [],
    interactive: row?.interactive ?? builtIn?.interactive ?? false,
    markets: (row?.markets ?? builtIn?.markets ?? [...MARKETS]) as Market[],
    hidden: row?.hidden ?? false,
    builtIn: builtIn !== undefined,
    policy: row?.policy ?? DEFAULT_RELEASE_POLICY,
  };
  if (row?.retired_at) entry.retired = { at: iso(row.retired_at), by: row.retired_by ?? '' };
  return entry;
}

/**
 * The catalogue as `sql` sees it: the built-in sections (their defaults
 * where no change set a value) and the added ones, live ones in tab order
 * (`order` their place), then, with `retired`, the retired ones.
 */
export async function catalogueIn(sql: Sql, options: { retired?: boolean } = {}): Promise<CatalogueEntry[]> {
  const rows = await sql.query<SectionRow>(`SELECT ${ROW_COLUMNS} FROM release_sections`);
  const order = await orderIn(sql);
  const byId = new Map(rows.map((row) => [row.section, row]));
  const all = [
    ...BUILT_IN_SECTIONS.map((builtIn) => entryOf(byId.get(builtIn.id), builtIn)),
    ...rows.filter((row) => !isBuiltInSection(row.section) && row.added_at !== null).map((row) => entryOf(row, undefined)),
  ];
  // A live section the list misses (it cannot, but a hand-edited database can) goes last, not missing.
  const place = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const live = all.filter((entry) => !entry.retired).sort((a, b) => place(a.id) - place(b.id));
  const entries: CatalogueEntry[] = live.map((entry, index) => ({ ...entry, order: index }));
  if (options.retired) entries.push(...all.filter((entry) => entry.retired).map((entry) => ({ ...entry, order: null })));
  return entries;
}

/** `origins` as a list of origins (`https://cdn.example`), or a refusal naming the field. */
function originsOf(origins: unknown): string[] {
  if (!Array.isArray(origins) || origins.length > MAX_ORIGINS)
    throw new ReleaseError('invalid', `origins: must be a list of at most ${MAX_ORIGINS} origins (https://cdn.example)`, 'origins');
  return [
    ...new Set(
      origins.map((origin, index) => {
        const url = typeof origin === 'string' ? URL.parse(origin) : null;
        const bare =
          url && (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
        if (!bare || !url)
          throw new ReleaseError('invalid', `origins.${index}: ${JSON.stringify(origin)} is not an origin (https://cdn.example, no path)`, `origins.${index}`);
        return url.origin;
      }),
    ),
  ];
}

function needLabels(labels: unknown, partial: boolean): Partial<SectionLabels> {
  const [problem] = labelsProblems(labels, partial);
  if (problem) throw new ReleaseError('invalid', `${problem.field}: ${problem.message}`, problem.field);
  return labels as Partial<SectionLabels>;
}

function needMarkets(markets: unknown): Market[] {
  const problem = marketsProblem(markets);
  if (problem) throw new ReleaseError('invalid', `markets: ${problem}`, 'markets');
  return markets as Market[];
}

/** `after` must be a live section other than `id` (400 naming the field); null and undefined pass. */
function needAfter(entries: readonly CatalogueEntry[], id: string, after: string | null | undefined): void {
  if (after === null || after === undefined) return;
  if (after === id || !entries.some((entry) => entry.id === after && !entry.retired))
    throw new ReleaseError('invalid', `after: ${JSON.stringify(after)} is not another section in the nav (null places it first)`, 'after');
}

/** 409 when showing one more section would pass what the nav holds. */
function needRoom(entries: readonly CatalogueEntry[]): void {
  const shown = entries.filter((entry) => !entry.retired && !entry.hidden).length;
  if (shown >= MAX_SHOWN_SECTIONS)
    throw new ReleaseError('conflict', `the nav holds ${MAX_SHOWN_SECTIONS} sections and ${shown} are shown: hide or retire one first`);
}

const words = (interactive: boolean) => (interactive ? 'interactive (script in the browser)' : 'static (no script in the browser)');

/** The sections: their entries, added, changed and retired by the integrator, and read by every server. */
export class SectionCatalogue {
  constructor(private readonly db: Database) {}

  /** The live sections in tab order (with `retired`, the retired ones after them). */
  list(options: { retired?: boolean } = {}): Promise<CatalogueEntry[]> {
    return catalogueIn(this.db, options);
  }

  /** The section `id`, live or retired; undefined when the catalogue never held it. */
  async get(id: string): Promise<CatalogueEntry | undefined> {
    return (await catalogueIn(this.db, { retired: true })).find((entry) => entry.id === id);
  }

  /**
   * Adds a section: 400 for a bad id, a reserved word, a missing label or a
   * bad field (named), 409 for an id taken or retired, or a nav already
   * full. In one transaction with its audit entry and announcement: two adds
   * of one id at once are one row (the second 409), and a database lost
   * meanwhile leaves nothing.
   */
  async add(input: SectionInput, actor: string): Promise<CatalogueEntry> {
    const idProblem = isBuiltInSection(input.id) ? `id "${input.id}" is a built-in section's` : sectionIdProblem(input.id);
    if (idProblem) throw new ReleaseError(isBuiltInSection(input.id) ? 'conflict' : 'invalid', idProblem, 'id');
    const labels = needLabels(input.labels, false) as SectionLabels;
    const origins = originsOf(input.origins);
    const markets = input.markets === undefined ? [...MARKETS] : needMarkets(input.markets);
    const interactive = input.interactive ?? false;
    return this.db.transaction(async (sql) => {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [CATALOGUE_LOCK]);
      const entries = await catalogueIn(sql, { retired: true });
      const taken = entries.find((entry) => entry.id === input.id);
      if (taken) throw new ReleaseError('conflict', taken.retired ? retiredProblem(input.id) : `a section ${input.id} exists`, 'id');
      needAfter(entries, input.id, input.after);
      needRoom(entries);
      const [inserted] = await sql.query(
        `INSERT INTO release_sections (section, label_en, label_id, origins, markets, interactive, added_at, added_by)
         VALUES ($1, $2, $3, $4::text[], $5::text[], $6, now(), $7) ON CONFLICT (section) DO NOTHING RETURNING section`,
        [input.id, labels.en, labels.id, origins, markets, interactive, actor],
      );
      // A row the catalogue did not show: another server's add of the same id, committed meanwhile.
      if (!inserted) throw new ReleaseError('conflict', `a section ${input.id} exists`, 'id');
      const order = placeAfter(
        entries.filter((entry) => !entry.retired).map((entry) => entry.id),
        input.id,
        input.after,
      );
      await writeOrder(sql, order);
      const place = input.after === null ? 'first' : input.after === undefined ? 'last' : `after ${input.after}`;
      const detail = `added ${JSON.stringify(labels.en)} / ${JSON.stringify(labels.id)}, ${place}, ${words(interactive)}, origins ${origins.join(' ') || 'none'}, markets ${markets.join(' ')}`;
      const facts: AuditFacts = { kind: 'section-add', labels, ...(input.after !== undefined && { after: input.after }), interactive, origins, markets };
      await announce(
        sql,
        input.id,
        { actor, action: 'section-add', detail: `${detail}${input.note ? `: ${input.note}` : ''}`, facts, note: input.note },
        false,
      );
      return (await catalogueIn(sql)).find((entry) => entry.id === input.id)!;
    });
  }

  /**
   * Changes what `patch` names of a live section (404 unknown, 409 retired):
   * hiding it while its canary runs is 409 (end the canary first), showing
   * one more than the nav holds is 409. Audited (`section-change`) and
   * announced with the change.
   */
  async change(id: string, patch: SectionPatch, actor: string): Promise<CatalogueEntry> {
    const labels = patch.labels === undefined ? undefined : needLabels(patch.labels, true);
    const origins = patch.origins === undefined ? undefined : originsOf(patch.origins);
    const markets = patch.markets === undefined ? undefined : needMarkets(patch.markets);
    return this.db.transaction(async (sql) => {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [CATALOGUE_LOCK]);
      const { canary } = await lockSectionIn(sql, id);
      const entries = await catalogueIn(sql);
      const before = entries.find((entry) => entry.id === id)!;
      needAfter(entries, id, patch.after);
      if (patch.hidden === true && canary)
        throw new ReleaseError('conflict', `${id} has a canary running (${canary.canary.release.id}): promote or abort it before hiding the section`, 'hidden');
      if (patch.hidden === false && before.hidden) needRoom(entries);
      const changes: string[] = [];
      // The same changes as facts, for a console to word in its reader's language (issue 49).
      const facts: SectionChangeFact[] = [];
      const set = async (column: string, value: unknown, cast = '') => {
        await sql.query(`UPDATE release_sections SET ${column} = $2${cast} WHERE section = $1`, [id, value]);
      };
      for (const language of ['en', 'id'] as const) {
        const label = labels?.[language];
        if (label === undefined) continue;
        await set(`label_${language}`, label);
        changes.push(`labels.${language} ${JSON.stringify(before.labels[language])} to ${JSON.stringify(label)}`);
        facts.push({ field: 'label', language, from: before.labels[language], to: label });
      }
      if (origins) {
        await set('origins', origins, '::text[]');
        changes.push(`origins ${origins.join(' ') || 'none'}`);
        facts.push({ field: 'origins', origins });
      }
      if (markets) {
        await set('markets', markets, '::text[]');
        changes.push(`markets ${markets.join(' ')}`);
        facts.push({ field: 'markets', markets: [...markets] });
      }
      if (patch.interactive !== undefined) {
        await set('interactive', patch.interactive);
        changes.push(`${before.interactive === patch.interactive ? 'kept' : `from ${words(before.interactive)} to`} ${words(patch.interactive)}`);
        facts.push({ field: 'grant', from: before.interactive, interactive: patch.interactive });
      }
      if (patch.hidden !== undefined) {
        await set('hidden', patch.hidden);
        changes.push(patch.hidden ? 'hidden' : 'shown');
        facts.push({ field: 'hidden', hidden: patch.hidden });
      }
      if (patch.policy !== undefined) {
        await set('policy', patch.policy);
        changes.push(`release policy from "${before.policy}" to "${patch.policy}" (its own token may ${describePolicy(patch.policy)})`);
        facts.push({ field: 'policy', from: before.policy, to: patch.policy });
      }
      if (patch.after !== undefined) {
        await writeOrder(
          sql,
          placeAfter(
            entries.map((entry) => entry.id),
            id,
            patch.after,
          ),
        );
        changes.push(patch.after === null ? 'moved first' : `moved after ${patch.after}`);
        facts.push({ field: 'order', after: patch.after });
      }
      await announce(
        sql,
        id,
        {
          actor,
          action: 'section-change',
          detail: `${changes.join(', ') || 'nothing changed'}${patch.note ? `: ${patch.note}` : ''}`,
          facts: { kind: 'section-change', changes: facts },
          note: patch.note,
        },
        false,
      );
      return (await catalogueIn(sql)).find((entry) => entry.id === id)!;
    });
  }

  /**
   * Retires an added section (a built-in one 409; one retired already 409):
   * its canary ends, every token holding its scope is revoked, it leaves the
   * nav and the served state; its releases and audit stay, and its row keeps
   * its id from any later add. One transaction: all of it or none.
   */
  async retire(id: string, actor: string, note?: string | null): Promise<CatalogueEntry> {
    if (isBuiltInSection(id)) throw new ReleaseError('conflict', `${id} is a built-in section: it can be hidden, never retired`);
    return this.db.transaction(async (sql) => {
      await sql.query('SELECT pg_advisory_xact_lock($1)', [CATALOGUE_LOCK]);
      const { canary } = await lockSectionIn(sql, id);
      const parts: string[] = [];
      let endedCanary: { release: string; percent: number } | undefined;
      if (canary) {
        await endCanary(sql, id, canary.canary);
        endedCanary = { release: canary.canary.release.id, percent: canary.canary.percent };
        parts.push(`ended the canary of ${canary.canary.release.id} (${canary.canary.percent} % of visits)`);
      }
      const revoked = await sql.query<{ name: string }>(
        'UPDATE release_tokens SET revoked_at = now() WHERE revoked_at IS NULL AND $1 = ANY(scopes) RETURNING name',
        [`section:${id}`],
      );
      for (const { name } of revoked)
        await recordAudit(sql, { actor, action: 'token', section: id as SectionId, detail: `revoked ${name}: ${id} was retired` });
      if (revoked.length > 0) parts.push(`revoked ${revoked.map((row) => row.name).join(', ')}`);
      await sql.query('UPDATE release_sections SET retired_at = now(), retired_by = $2 WHERE section = $1', [id, actor]);
      await writeOrder(
        sql,
        (await orderIn(sql)).filter((one) => one !== id),
      );
      const facts: AuditFacts = { kind: 'section-retire', revoked: revoked.map((row) => row.name), ...(endedCanary && { endedCanary }) };
      await announce(sql, id, { actor, action: 'section-retire', detail: joined(parts.join('; ') || 'retired', note), facts, note }, true);
      return (await catalogueIn(sql, { retired: true })).find((entry) => entry.id === id)!;
    });
  }
}
