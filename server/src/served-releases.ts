import { isDeepStrictEqual } from 'node:util';
import type { Logger } from '@portico/platform/logging';
import type { ConfigAnswer } from '@portico/config-server/config-answer';
import type { SectionId } from '@portico/contract/sections';
import { BUILT_IN_SECTIONS, type SectionEntry } from '@portico/contract/section-entries';
import type { HealthNote } from '@portico/contract/beacon';
import { CONFIG_BASELINE, type ActiveReleases, type Release, type ServedState, type ServerSignal } from '@portico/releases';

/** A preview link, opened: the release it shows and until when, or why it shows none. */
export type PreviewVisit = { release: Release; expiresAt: Date } | { refused: 'expired' | 'invalid' };

/**
 * What the server needs of the release store to serve releases: the active
 * ones, a way to hear that they changed (every server on the database hears
 * it), and preview links opened.
 */
export interface ReleaseFeed {
  /** The active releases and the canaries running. */
  read(): Promise<ServedState>;
  /**
   * Calls `onChange` when an activation or a rollback may have changed what
   * is active, and `onRead` after each of the watch's own reads of the store
   * (its catch-up poll, the one of the server) with why it failed, if it did.
   */
  watch(onChange: () => void, onRead?: (problem: Error | undefined) => void): Promise<{ close(): Promise<void> }>;
  openPreview(token: string): Promise<PreviewVisit>;
  /**
   * The token a page's visit report carries for the releases it was served
   * (signed, shared by every server, renewed every few hours; the same for
   * every visitor of those releases, so pages stay cacheable); undefined
   * while it cannot be made.
   */
  healthToken?(releases: HealthNote['releases']): string | undefined;
  /**
   * What this server saw of a release itself (a render failing, its worker
   * set aside, a 5xx of /api/contact to its cohort): kept in the store for
   * the canary judge and `status`.
   */
  signal?(signal: ServerSignal): Promise<void>;
}

/** The first-party cookie holding a visitor's cohort: a number 0-99, nothing else. */
export const COHORT_COOKIE = 'portico_cohort';
export const COHORT_DAYS = 30;

/** What a visitor in `bucket` (0-99) is served: the active releases, with each canary's candidate where the bucket is below its share. No bucket: the active ones. */
export function releasesFor(state: ServedState, bucket: number | undefined): ActiveReleases {
  const releases: ActiveReleases = { ...state.active };
  if (bucket === undefined) return releases;
  for (const [id, canary] of Object.entries(state.canaries)) {
    if (canary && bucket < canary.percent) releases[id] = canary.release;
  }
  return releases;
}

/**
 * The distinct sets of releases the cohorts get (one without a canary): what
 * the servers warm and render. The first is the active releases alone (what
 * a visitor outside every canary gets: the server's own render workers run
 * its builds, a candidate's run apart). Bucket 0 gets every candidate, and
 * bucket P (a share, at most 99) is the first outside that canary.
 */
export function cohortVariants(state: ServedState): ActiveReleases[] {
  const buckets = [0, ...Object.values(state.canaries).flatMap((canary) => (canary ? [canary.percent] : []))];
  const variants = new Map<string, ActiveReleases>([[releaseKey(state.active), { ...state.active }]]);
  for (const bucket of buckets) {
    const releases = releasesFor(state, bucket);
    variants.set(releaseKey(releases), releases);
  }
  return [...variants.values()];
}

/** The releases a set holds, by id (a release is never changed): two sets with the same key serve the same config.json. */
export const releaseKey = (releases: ActiveReleases) =>
  sectionsOf(releases)
    .map((id) => `${id}=${releases[id]?.id ?? '-'}`)
    .join(' ');

/** The sections a record names, in one order (added sections have no fixed place in a key). */
const sectionsOf = (record: Partial<Record<SectionId, unknown>>): SectionId[] =>
  Object.keys(record)
    .filter((id) => record[id] !== undefined)
    .sort();

/**
 * Each section's release id, for the page's visit report; a section whose
 * canary runs with no active release (`canaries`) is CONFIG_BASELINE on a
 * page outside the cohort, so the judge has the baseline's visits to compare.
 */
export function releaseIds(releases: ActiveReleases, canaries: ServedState['canaries'] = {}): HealthNote['releases'] {
  const ids: HealthNote['releases'] = Object.fromEntries(sectionsOf(releases).map((id) => [id, releases[id]!.id]));
  for (const id of sectionsOf(canaries)) ids[id] ??= CONFIG_BASELINE;
  return ids;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type ServedCanary = ServedState['canaries'][SectionId];
/** The same release, by id and pin. */
const sameActive = (a: ActiveReleases[SectionId], b: ActiveReleases[SectionId]) => a?.id === b?.id && a?.integrity === b?.integrity;
/** The same canary, by its number (a canary started again is another one), release and share. */
const sameCanary = (a: ServedCanary, b: ServedCanary) => a?.id === b?.id && a?.release.id === b?.release.id && a?.percent === b?.percent;
/** The same releases and canaries in every section. */
const sameState = (a: ServedState, b: ServedState) =>
  [...new Set([...sectionsOf(a.active), ...sectionsOf(b.active), ...sectionsOf(a.canaries), ...sectionsOf(b.canaries)])].every(
    (id) => sameActive(a.active[id], b.active[id]) && sameCanary(a.canaries[id], b.canaries[id]),
  ) && catalogueKey(a) === catalogueKey(b);

/**
 * What the store says of the sections (the grants, and each section's entry:
 * labels, place, markets, hidden), as text: two states with the same key
 * serve the same config.json `sections`.
 */
export function catalogueKey(catalogue: SectionCatalogue): string {
  // Asked at every config.json and page (a stringify of every section's entry, 13 µs): kept per state, which is never changed, only replaced.
  let key = catalogueKeys.get(catalogue);
  if (key === undefined) {
    const { grants, sections } = catalogue;
    key = `${sectionsOf(grants ?? {})
      .map((id) => `${id}=${grants![id]!.interactive ? 'i' : 's'}`)
      .join(' ')}|${sections === undefined ? '' : JSON.stringify(sections)}`;
    catalogueKeys.set(catalogue, key);
  }
  return key;
}

const catalogueKeys = new WeakMap<SectionCatalogue, string>();

/** What the store says of the sections, apart from their releases. */
export type SectionCatalogue = Pick<ServedState, 'grants' | 'sections'>;

/**
 * Whether `sections` is the built-in list, unchanged (grants apart: they are
 * written on their own). Field by field (Node's deep equality): the order
 * in which an entry's keys were written says nothing, and a text compare
 * would take the default list, built in another order, for a change.
 */
const isDefaultList = (sections: readonly SectionEntry[]) =>
  sections.length === BUILT_IN_SECTIONS.length &&
  sections.every((entry, index) => {
    const { interactive: _grant, ...rest } = entry;
    const { interactive: _default, ...defaults } = BUILT_IN_SECTIONS[index]!;
    return isDeepStrictEqual(rest, defaults);
  });

/**
 * The store's sections as config.json's `sections` writes them (the shape
 * a deployment run from the file alone uses, so one reader, parseSections,
 * reads both): each entry after the one before it, so the page keeps the
 * store's order; each grant over its entry. Undefined when the store says
 * nothing.
 */
function storedSections({ grants = {}, sections }: SectionCatalogue): Record<string, Record<string, unknown>> | undefined {
  const granted = sectionsOf(grants);
  // The default list as it is says nothing the file's reader does not know: a fresh install's config.json (and page) stays as it was.
  const listed = sections !== undefined && !isDefaultList(sections) ? sections : [];
  if (listed.length === 0 && granted.length === 0) return undefined;
  const written: Record<string, Record<string, unknown>> = {};
  let previous: string | null = null;
  for (const entry of listed) {
    const { labels, markets, hidden, interactive } = entry;
    written[entry.id] = { labels: { ...labels }, after: previous, markets: [...markets], hidden, interactive };
    previous = entry.id;
  }
  for (const id of granted) written[id] = { ...written[id], interactive: grants[id]!.interactive };
  return written;
}

/**
 * config.json as a visitor gets it: the operator's file with each section's
 * `remotes[s]` and `remoteIntegrity[s]` taken from its active release where
 * it has one, and a preview visit's release over that; and the grants the
 * store holds over the file's `sections`. `preview` and `previewRefused` are
 * the server's to set: an operator's are dropped.
 */
export function withReleases(
  answer: ConfigAnswer,
  active: ActiveReleases,
  preview?: PreviewVisit,
  health?: HealthNote,
  catalogue: SectionCatalogue = {},
): ConfigAnswer {
  if (answer.status !== 200 || !isRecord(answer.value)) return answer;
  const { preview: _ignored, previewRefused: _alsoIgnored, health: _healthIgnored, ...file } = answer.value;
  const releases: ActiveReleases = { ...active };
  if (preview && 'release' in preview) releases[preview.release.section] = preview.release;
  const chosen = sectionsOf(releases);
  const serversOwn = [_ignored, _alsoIgnored, _healthIgnored].some((field) => field !== undefined);
  const stored = storedSections(catalogue);
  if (chosen.length === 0 && stored === undefined && preview === undefined && !serversOwn) return answer;

  const value: Record<string, unknown> = { ...file };
  // The store's sections win over the file's (a `sections` that is not an object stays as written: parseConfig names it and fails closed).
  if (stored !== undefined && (file.sections === undefined || isRecord(file.sections))) {
    const written = (file.sections as Record<string, unknown> | undefined) ?? {};
    // The store's first, in its order (each placed after the one before it), then what only the file lists, placed by its own `after`.
    value.sections = { ...stored, ...Object.fromEntries(Object.entries(written).filter(([id]) => !(id in stored))) };
  }
  // A `remotes` or `remoteIntegrity` that is not an object stays as written: parseConfig names it.
  if (chosen.length > 0 && (file.remotes === undefined || isRecord(file.remotes)) && (file.remoteIntegrity === undefined || isRecord(file.remoteIntegrity))) {
    const remotes: Record<string, unknown> = { ...(file.remotes as Record<string, unknown> | undefined) };
    const pins: Record<string, unknown> = { ...(file.remoteIntegrity as Record<string, unknown> | undefined) };
    for (const id of chosen) {
      remotes[id] = releases[id]!.manifestUrl;
      pins[id] = releases[id]!.integrity;
    }
    value.remotes = remotes;
    value.remoteIntegrity = pins;
  }
  if (preview && 'release' in preview) {
    const { release } = preview;
    value.preview = {
      section: release.section,
      release: release.id,
      buildId: release.buildId,
      version: release.version,
      expiresAt: preview.expiresAt.toISOString(),
    };
  } else if (preview) {
    value.previewRefused = preview.refused;
  }
  // A preview visit is not a visitor's: it reports nothing.
  if (health && !preview) value.health = health;
  return { ...answer, body: JSON.stringify(value), value };
}

export interface ServedReleasesOptions {
  feed: ReleaseFeed;
  /** Warms the render workers for `next` before it is served (bounded by the caller). */
  warm: (next: ServedState) => Promise<void>;
  log: Logger;
}

/**
 * The releases this server serves: read from the store at start and again
 * whenever any server activates or rolls back, warmed, then swapped in. The
 * feed's watch says so (a notification, or its catch-up poll of the
 * generations: the one poll, so what is served is read whole only on a
 * change). When the database cannot be read, the last releases known stay
 * served (and the log says so, once per outage, as the watch's poll or a
 * read finds it); once it answers again, what is served is read again.
 */
export class ServedReleases {
  private state: ServedState = { active: {}, canaries: {} };
  private refreshing: Promise<void> | undefined;
  private again = false;
  private outage = false;
  private watching: { close(): Promise<void> } | undefined;
  private closed = false;

  constructor(private readonly options: ServedReleasesOptions) {}

  /** What is served now. */
  current(): ServedState {
    return this.state;
  }

  /** Reads what is active (warming nothing: nothing is served yet) and starts listening. */
  async start(): Promise<void> {
    await this.read(false);
    this.watching = await this.options.feed
      .watch(
        () => void this.refresh(),
        (problem) => this.watchRead(problem),
      )
      .catch((error: unknown) => {
        this.options.log.warn(`releases: cannot watch for activations (${(error as Error).message}); this server serves what it read at start`);
        return undefined;
      });
  }

  /** The watch's poll found the database away (an outage starts), or answering (after one: read what may have changed meanwhile). */
  private watchRead(problem: Error | undefined): void {
    if (problem) this.noteOutage(problem);
    else if (this.outage) void this.refresh();
  }

  private noteOutage(error: Error): void {
    if (!this.outage) {
      const known = sectionsOf(this.state.active).map((id) => this.state.active[id]!.id);
      this.options.log.error(
        `releases: the database cannot be read (${error.message}); serving the last active releases known (${known.join(', ') || 'none: config.json as written'})`,
      );
    }
    this.outage = true;
  }

  /** Reads the store again, warming and swapping in what changed; one read at a time, the last request always followed. */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = this.read(true).finally(() => {
      this.refreshing = undefined;
      if (this.again && !this.closed) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.refreshing;
  }

  private async read(warm: boolean): Promise<void> {
    let next: ServedState;
    try {
      next = await this.options.feed.read();
    } catch (error) {
      this.noteOutage(error as Error);
      return;
    }
    if (this.outage) this.options.log.info('releases: the database answers again');
    this.outage = false;
    if (sameState(next, this.state)) return;
    if (warm) await this.options.warm(next);
    const before = this.state;
    this.state = next;
    for (const id of new Set([...sectionsOf(before.active), ...sectionsOf(next.active), ...sectionsOf(before.canaries), ...sectionsOf(next.canaries)])) {
      const active = next.active[id];
      if (!sameActive(active, before.active[id]))
        this.options.log.info(`releases: ${id} is now ${active ? `release ${active.id} (build ${active.buildId})` : 'the URL config.json names'}`);
      const canary = next.canaries[id];
      if (!sameCanary(canary, before.canaries[id])) {
        this.options.log.info(`releases: ${id} ${canary ? `canary ${canary.release.id} for ${canary.percent} % of visitors` : 'has no canary'}`);
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.watching?.close();
  }
}
