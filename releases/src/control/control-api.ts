import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import type { ContactService, MessageAccessEntry } from '@portico/messages';
import { BODY_TIME_MS, readBody } from '@portico/platform/http';
import { z } from 'zod';
import { normalisedManifestUrl } from '../manifest-url';
import { DEFAULT_PREVIEW_SECONDS, MAX_PREVIEW_SECONDS, MIN_PREVIEW_SECONDS, PREVIEW_SECONDS_RANGE, previewUrl, signPreview } from '../preview-link';
import { noVisits, refusalSummary, type Actor, type AuditEntry, type HealthSource, type PublishChecks, type ReleaseHealth, type Scope } from '../release';
import { isScope, isSection, mayActOn, mayGrant, visibleSections } from '../scopes';
import type { CanaryCounts, ServerSignals } from '../canary/canary-counts';
import { ReleaseError } from '../store/release-error';
import type { ReleaseStore, SectionState } from '../store/release-store';
import { FailedAuthLimit } from './failed-auth-limit';
import { RefusedPublishLimit, type HeldBackRun } from './refused-publish-limit';

/** A request body past this is refused (413): the largest real one, a publish with a note, is well under 2 KB. */
export const CONTROL_BODY_LIMIT = 16 * 1024;

/** `GET /api/sections` shows each release's health over this many hours unless `?hours=` says otherwise. */
export const DEFAULT_HEALTH_WINDOW_HOURS = 24;
/** The longest health window asked for: the health kept by default (30 days). */
const MAX_HEALTH_WINDOW_HOURS = 30 * 24;

/** The contact messages' operations the control API offers to a `messages` token, each audited under its name, and their audit log. */
export type MessagesAdmin = Pick<ContactService['store'], 'operator' | 'accessLog'>;

export interface ControlApiOptions {
  store: ReleaseStore;
  /** 0 for any free port (tests). */
  port: number;
  /** Loopback unless PORTICO_CONTROL_HOST names another address. */
  host?: string;
  publishChecks: PublishChecks;
  /** The contact messages; without them `/api/messages` answers 503. */
  messages?: MessagesAdmin;
  /** The page's public address, which preview links open (PORTICO_PUBLIC_URL or http://localhost:<port>). */
  publicUrl: string;
  log: (line: string) => void;
  /** Each section's URL in the operator's config.json, shown where a section has no active release. */
  configuredRemotes?: () => Promise<Partial<Record<SectionId, string>>>;
  /** Failed authentications allowed per address and window before 429 (10 a minute by default). */
  failedAuth?: { max: number; windowMs: number };
  /** Refused publishes allowed per token and window before its publishes answer 429 (10 in 10 minutes by default). */
  refusedPublishes?: { max: number; windowMs: number };
  /** Each release's health from the visit reports (HealthStore.health); without it every section's `health` is `{}`. */
  health?: HealthSource;
  /** What the config.json being served gets wrong and lacks (`GET /api/config`); without it that route answers 503. */
  configReport?: () => Promise<{ problems: { field: string; message: string }[]; warnings: { field: string; message: string }[] }>;
}

export interface ControlApi {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** An answer the handlers throw: status and JSON body, in the product brief's words. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const STATUS_OF: Record<ReleaseError['kind'], number> = { 'not-found': 404, conflict: 409, invalid: 400 };


// The bodies, validated once here; unknown keys are refused so a typo is an error, not ignored.
const note = z.string().max(1000, 'at most 1000 characters').optional();
const publishBody = z.strictObject({
  section: z.string(),
  // One spelling per URL from here on: the checks fetch it, the store keys releases by it.
  manifestUrl: z.url({ protocol: /^https?$/, error: 'manifestUrl must be an absolute http(s) URL' }).max(2048).transform(normalisedManifestUrl),
  note,
});
const activateBody = z.strictObject({ release: z.string().min(1).max(100), note });
const rollbackBody = z.strictObject({ release: z.string().min(1).max(100).optional(), note });
// The ranges are the store's to check (one check for every caller); here only the types.
const canaryBody = z.strictObject({
  release: z.string().min(1).max(100),
  percent: z.number(),
  minVisits: z.number().optional(),
  maxFailureDelta: z.number().optional(),
  maxSlowdown: z.number().optional(),
  promoteAfterVisits: z.number().nullable().optional(),
  minNetworks: z.number().optional(),
  maxNetworkShare: z.number().optional(),
  note,
});
const canaryEndBody = z.strictObject({ note });
const previewBody = z.strictObject({ expiresIn: z.int(PREVIEW_SECONDS_RANGE).min(MIN_PREVIEW_SECONDS, PREVIEW_SECONDS_RANGE).max(MAX_PREVIEW_SECONDS, PREVIEW_SECONDS_RANGE).optional() });
const tokenBody = z.strictObject({
  name: z.string().min(1).max(64),
  section: z.string().nullable().optional(),
  scopes: z.array(z.string().refine(isScope, 'a scope is releases, messages or section:<section>')).min(1).optional(),
});

/** A messages audit entry in the audit log's shape: no section, release or `from`. */
function asAuditEntry(entry: MessageAccessEntry): AuditEntry {
  return { at: entry.at, actor: entry.actor, action: entry.action, section: null, release: null, from: null, detail: entry.detail };
}

function parsed<T>(schema: z.ZodType<T>, json: unknown): T {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw new Refusal(400, field ? `${field}: ${issue.message}` : issue.message, field ? { field } : {});
}

function sectionOf(text: string | null | undefined): SectionId {
  if (!isSection(text)) throw new Refusal(404, `no section ${JSON.stringify(text)}: the sections are ${SECTION_IDS.join(', ')}`);
  return text;
}

function needSection(actor: Actor, section: SectionId): void {
  if (!mayActOn(actor, section)) throw new Refusal(403, `the token ${actor.name} may not act on ${section}`);
}

function needScope(actor: Actor, scope: Scope, what: string): void {
  if (!actor.scopes.includes(scope)) throw new Refusal(403, `the token ${actor.name} may not ${what} (it needs the ${scope} scope)`);
}

/** The sections a listing covers: the one asked for (which the token must cover), or all the token may see. */
function sectionsToShow(actor: Actor, asked: string | null): SectionId[] {
  if (asked !== null) {
    const section = sectionOf(asked);
    needSection(actor, section);
    return [section];
  }
  const visible = visibleSections(actor);
  if (visible.length === 0) throw new Refusal(403, `the token ${actor.name} may act on no section`);
  return visible;
}

/**
 * A browser has no business here (the CLI and CI call this API); refusing
 * what a browser sends, before the token is checked, keeps a web page the
 * operator visits from spending the failed-authentication allowance of the
 * operator's own address. Browsers send Sec-Fetch-Site with every request
 * and Origin with most; Node's fetch and curl send neither (Node does send
 * Sec-Fetch-Mode, so that one says nothing).
 */
function fromBrowser(req: IncomingMessage): boolean {
  return req.headers.origin !== undefined || req.headers['sec-fetch-site'] !== undefined;
}

interface Route {
  method: string;
  pattern: RegExp;
  handle: (context: RequestContext, params: string[]) => Promise<[number, unknown]>;
}

interface RequestContext {
  actor: Actor;
  url: URL;
  body: () => Promise<unknown>;
}

/**
 * The control API: releases, sections, previews, the audit log, tokens
 * and the contact messages, each request with a bearer token, answered as
 * the product brief's "Releases" table says. JSON in and out, never cached.
 */
export async function startControlApi(options: ControlApiOptions): Promise<ControlApi> {
  const { store, log } = options;
  const limit = new FailedAuthLimit(options.failedAuth?.max, options.failedAuth?.windowMs);
  const refusedPublishes = new RefusedPublishLimit(options.refusedPublishes?.max, options.refusedPublishes?.windowMs);

  /** One audit entry per run of publishes held back, with how many there were. */
  const auditHeldBack = async (runs: HeldBackRun[]) => {
    for (const run of runs) {
      const [only, ...others] = run.sections;
      const window = `${refusedPublishes.max} refused publishes in ${refusedPublishes.windowMs / 60_000} minutes`;
      await store
        .audit({
          actor: run.token,
          action: 'publish-refused',
          section: others.length === 0 ? only : null,
          detail: `${run.count} publish${run.count === 1 ? '' : 'es'} of ${[...run.sections].join(', ')} refused with 429 from ${new Date(run.first).toISOString()} to ${new Date(run.last).toISOString()}, unchecked: the token was over its limit of ${window}`,
        })
        .catch((error: unknown) => log(`control: the audit entry of ${run.count} publishes held back for ${run.token} cannot be written: ${(error as Error).message}`));
    }
  };
  const heldBackTimers = new Set<NodeJS.Timeout>();
  const summariseWhenEnded = (seconds: number) => {
    const timer = setTimeout(() => {
      heldBackTimers.delete(timer);
      void auditHeldBack(refusedPublishes.takeEnded());
    }, seconds * 1000);
    timer.unref();
    heldBackTimers.add(timer);
  };

  const routes: Route[] = [
    {
      method: 'POST',
      pattern: /^\/api\/releases$/,
      async handle({ actor, body }) {
        const input = parsed(publishBody, await body());
        const section = sectionOf(input.section);
        needSection(actor, section);
        const wait = refusedPublishes.retryAfter(actor.name);
        if (wait !== undefined) {
          if (refusedPublishes.heldBack(actor.name, section)) {
            log(`control: the token ${actor.name} had ${refusedPublishes.max} publishes refused within ${refusedPublishes.windowMs / 60_000} minutes; its publishes are refused unchecked for ${wait} s`);
            summariseWhenEnded(wait);
          }
          throw new Refusal(
            429,
            `the token ${actor.name} had ${refusedPublishes.max} publishes refused within ${refusedPublishes.windowMs / 60_000} minutes, so this one was not checked: try again in ${wait} s (the audit log has each refusal's reasons)`,
            {},
            { 'Retry-After': String(wait) },
          );
        }
        let outcome;
        try {
          outcome = await options.publishChecks({ section, manifestUrl: input.manifestUrl });
        } catch (error) {
          // The checks report what they find as failed checks; a throw is the checker itself failing.
          log(`control: the publish checks of ${input.manifestUrl} could not run: ${(error as Error).message}`);
          throw new Refusal(503, `the publish checks could not run: ${(error as Error).message}`, {}, { 'Retry-After': '5' });
        }
        if (outcome.refusedOrigin !== undefined) {
          refusedPublishes.refused(actor.name);
          const allowed = outcome.allowedOrigins ?? [];
          const error =
            `${outcome.refusedOrigin} is not one of ${section}'s release origins, so nothing was fetched from it. ` +
            `${section}'s release origins: ${allowed.length > 0 ? allowed.join(', ') : 'none'} (the origin of config.json's remotes.${section}, and allowedRemoteOrigins). ` +
            `To publish from ${outcome.refusedOrigin}, the operator adds it to allowedRemoteOrigins in config.json, which the server reads on every publish: no restart ` +
            `(an origin there may also serve any section to a visit that asks for it with ?remote.<section>=)`;
          await store.audit({ actor: actor.name, action: 'publish-refused', section, detail: `${input.manifestUrl}: ${outcome.refusedOrigin} is not one of ${section}'s release origins` });
          throw new Refusal(422, error, { origin: outcome.refusedOrigin, allowedOrigins: allowed, checks: outcome.checks });
        }
        if (!outcome.ok || !outcome.manifest) {
          refusedPublishes.refused(actor.name);
          const failed = outcome.checks.filter((check) => !check.ok);
          const detail = failed.map((check) => `${check.name}: ${check.detail}`).join('; ');
          await store.audit({ actor: actor.name, action: 'publish-refused', section, detail: `${input.manifestUrl}: ${detail || 'the checks gave no manifest'}` });
          throw new Refusal(422, refusalSummary(outcome.checks), { checks: outcome.checks });
        }
        const { release, created } = await store.publish({
          section,
          manifestUrl: input.manifestUrl,
          ...outcome.manifest,
          createdBy: actor.name,
          note: input.note ?? null,
          checks: outcome.checks,
        });
        const { checks: _checks, broken, ...answer } = release;
        return [created ? 201 : 200, broken ? { ...answer, broken } : answer];
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/releases$/,
      async handle({ actor, url }) {
        return [200, await store.list({ sections: sectionsToShow(actor, url.searchParams.get('section')) })];
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/releases\/([^/]+)\/preview$/,
      async handle({ actor, body }, [id]) {
        const input = parsed(previewBody, await body());
        const release = await store.get(id!);
        if (!release) throw new Refusal(404, `no release ${id}`);
        needSection(actor, release.section);
        const expiresAt = new Date(Date.now() + (input.expiresIn ?? DEFAULT_PREVIEW_SECONDS) * 1000);
        // Whole seconds, as the token carries it.
        expiresAt.setMilliseconds(0);
        const url = previewUrl(options.publicUrl, signPreview(await store.previewSecret(), { release: release.id, expiresAt }));
        await store.audit({ actor: actor.name, action: 'preview', section: release.section, release: release.id, detail: `a preview link until ${expiresAt.toISOString()}` });
        return [201, { url, expiresAt: expiresAt.toISOString() }];
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/sections\/([^/]+)\/active$/,
      async handle({ actor, body }, [name]) {
        const section = sectionOf(name);
        needSection(actor, section);
        const input = parsed(activateBody, await body());
        await needReleaseOf(actor, input.release);
        return [200, await store.activate(section, input.release, actor.name, input.note)];
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/sections\/([^/]+)\/rollback$/,
      async handle({ actor, body }, [name]) {
        const section = sectionOf(name);
        needSection(actor, section);
        const input = parsed(rollbackBody, await body());
        if (input.release !== undefined) await needReleaseOf(actor, input.release);
        return [200, await store.rollback(section, input.release, actor.name, input.note)];
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/sections\/([^/]+)\/canary$/,
      async handle({ actor, body }, [name]) {
        const section = sectionOf(name);
        needSection(actor, section);
        const { release, ...settings } = parsed(canaryBody, await body());
        await needReleaseOf(actor, release);
        await store.startCanary(section, release, settings, actor.name);
        return [200, (await sectionAnswers([section]))[section]];
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/sections\/([^/]+)\/canary\/promote$/,
      async handle({ actor, body }, [name]) {
        const section = sectionOf(name);
        needSection(actor, section);
        const input = parsed(canaryEndBody, await body());
        await store.promoteCanary(section, actor.name, input.note);
        return [200, (await sectionAnswers([section]))[section]];
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/sections\/([^/]+)\/canary$/,
      async handle({ actor, body }, [name]) {
        const section = sectionOf(name);
        needSection(actor, section);
        const input = parsed(canaryEndBody, await body());
        await store.abortCanary(section, actor.name, 'abort', input.note);
        return [200, (await sectionAnswers([section]))[section]];
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/sections$/,
      async handle({ actor, url }) {
        const hoursText = url.searchParams.get('hours');
        const hours = hoursText === null ? DEFAULT_HEALTH_WINDOW_HOURS : Number(hoursText);
        if (!Number.isInteger(hours) || hours < 1 || hours > MAX_HEALTH_WINDOW_HOURS) throw new Refusal(400, `hours must be a whole number from 1 to ${MAX_HEALTH_WINDOW_HOURS}`, { field: 'hours' });
        return [200, await sectionAnswers(sectionsToShow(actor, null), hours)];
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/audit$/,
      async handle({ actor, url }) {
        const limitText = url.searchParams.get('limit');
        const count = limitText === null ? 100 : Number(limitText);
        if (!Number.isInteger(count) || count < 1 || count > 10_000) throw new Refusal(400, 'limit must be a whole number from 1 to 10000', { field: 'limit' });
        const asked = url.searchParams.get('section');
        // Who read, exported or deleted messages: shown to a messages token, in the whole log (no section asked).
        const accesses = asked === null && actor.scopes.includes('messages') && options.messages ? await options.messages.accessLog({ limit: count }) : undefined;
        // A messages token with no section sees those alone.
        if (accesses && visibleSections(actor).length === 0) return [200, accesses.map(asAuditEntry)];
        // An integrator sees everything, token changes included; a section token its sections' entries.
        const sections = asked === null && actor.scopes.includes('releases') ? undefined : sectionsToShow(actor, asked);
        const entries = await store.auditLog({ sections, limit: count });
        if (!accesses) return [200, entries];
        return [200, [...entries, ...accesses.map(asAuditEntry)].sort((a, b) => b.at.localeCompare(a.at)).slice(0, count)];
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/tokens$/,
      async handle({ actor, body }) {
        needScope(actor, 'releases', 'manage tokens');
        const input = parsed(tokenBody, await body());
        const section = input.section === undefined || input.section === null ? null : sectionOf(input.section);
        const scopes = (input.scopes ?? [section ? `section:${section}` : 'releases']) as Scope[];
        if (!mayGrant(actor, scopes)) throw new Refusal(403, `the token ${actor.name} may not grant ${scopes.join(', ')}: a token grants only what it holds`);
        const created = await store.createToken({ name: input.name, section, scopes, actor: actor.name });
        return [201, created];
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/tokens\/([^/]+)$/,
      async handle({ actor }, [name]) {
        needScope(actor, 'releases', 'manage tokens');
        const token = await store.token(name!);
        if (!token) throw new Refusal(404, `no token ${name}`);
        if (!mayGrant(actor, token.scopes)) throw new Refusal(403, `the token ${actor.name} may not revoke ${name}, which holds more than it does`);
        if (!(await store.revokeToken(name!, actor.name))) throw new Refusal(404, `no token ${name}`);
        return [200, { name, revoked: true }];
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/config$/,
      // Any valid token: what the file being served gets wrong is every team's to know, and holds no secret.
      async handle() {
        if (!options.configReport) throw new Refusal(503, 'the config.json report is not available on this server');
        return [200, await options.configReport()];
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/messages$/,
      async handle({ actor, url }) {
        const messages = needMessages(actor);
        const sinceText = url.searchParams.get('since');
        const since = sinceText === null ? undefined : new Date(sinceText);
        if (since && Number.isNaN(since.getTime())) throw new Refusal(400, 'since is not a date', { field: 'since' });
        // A listing for an export says so, and in which format: the audit log tells a look from a copy.
        const format = url.searchParams.get('export');
        if (format !== null && format !== 'csv' && format !== 'json') throw new Refusal(400, 'export is csv or json', { field: 'export' });
        return [200, await messages.operator(actor.name).list({ since, ...(format === null ? {} : { export: format }) })];
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/messages\/([^/]+)$/,
      async handle({ actor }, [id]) {
        const message = await needMessages(actor).operator(actor.name).get(id!);
        if (!message) throw new Refusal(404, `no message ${id}`);
        return [200, message];
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/messages\/([^/]+)$/,
      async handle({ actor }, [id]) {
        if (!(await needMessages(actor).operator(actor.name).delete(id!))) throw new Refusal(404, `no message ${id}`);
        return [200, { deleted: id }];
      },
    },
  ];

  /**
   * Each section's state as `GET /api/sections` answers it (and the canary
   * endpoints, for theirs): the store's state, the releases' health, and
   * the section's URL in config.json.
   */
  async function sectionAnswers(sections: readonly SectionId[], hours = DEFAULT_HEALTH_WINDOW_HOURS): Promise<Record<string, unknown>> {
    // One section (a canary endpoint's answer): only its state is read.
    const only = sections.length === 1 ? sections[0] : undefined;
    const [states, configured] = await Promise.all([store.sectionStates(only), options.configuredRemotes?.().catch(() => ({})) ?? Promise.resolve({})]);
    // The health failing must not fail the answer: a canary endpoint answers after its change is committed.
    const healths = await Promise.all(
      sections.map((section) =>
        healthOf(section, states[section], hours).then(
          ({ health, since }) => ({ health, healthSince: since.toISOString() }),
          (error: unknown) => {
            log(`control: the health of ${section}'s releases cannot be read: ${(error as Error).message}`);
            return { health: {}, healthError: `the health of the releases cannot be read now: ${(error as Error).message}` };
          },
        ),
      ),
    );
    const judged = await Promise.all(sections.map((section) => judgedOf(section, states[section])));
    const answer: Record<string, unknown> = {};
    sections.forEach((section, index) => {
      const configuredUrl = (configured as Partial<Record<SectionId, string>>)[section];
      answer[section] = { ...states[section], ...healths[index], ...judged[index], ...(configuredUrl ? { configured: configuredUrl } : {}) };
    });
    return answer;
  }

  /**
   * While a canary runs, what its judge reads of both releases, by id: the
   * networks their counted visits came from, and what the servers saw
   * themselves (render failures, set aside, 5xx of /api/contact, broken).
   * `health` shows every valid visit; this is what the judge bounds.
   */
  async function judgedOf(section: SectionId, state: SectionState): Promise<{ judged?: Record<string, { networks: number } & ServerSignals> }> {
    if (!state.canary || !state.candidate || !state.active) return {};
    try {
      const counts = await store.canaryCounts({ id: state.canary.id, release: state.candidate }, state.active.id);
      const side = ({ networks, signals }: CanaryCounts['active']) => ({ networks: networks.filter((counts) => counts.visits > 0).length, ...signals });
      return { judged: { [state.active.id]: side(counts.active), [state.candidate.id]: side(counts.candidate) } };
    } catch (error) {
      log(`control: what the judge reads of ${section}'s canary cannot be read: ${(error as Error).message}`);
      return {};
    }
  }

  /**
   * The health of the section's active release and its candidate, by id:
   * while a canary runs over its window (since it started), the one the
   * judge compares, else over the last day. A release with no visits
   * reported shows zeros.
   */
  async function healthOf(section: SectionId, state: SectionState, hours: number): Promise<{ health: Record<string, ReleaseHealth>; since: Date }> {
    const ids = [state.active?.id, state.candidate?.id].filter((id): id is string => id !== undefined);
    const since = state.canary ? new Date(state.canary.startedAt) : new Date(Date.now() - hours * 3_600_000);
    if (!options.health || ids.length === 0) return { health: {}, since };
    const found = await options.health(section, ids, since);
    return { health: Object.fromEntries(ids.map((id) => [id, found[id] ?? noVisits()])), since };
  }

  /** The release `id` must exist (404) and be of a section the token covers (403); its section's match is the store's (409). */
  async function needReleaseOf(actor: Actor, id: string): Promise<void> {
    const release = await store.get(id);
    if (!release) throw new Refusal(404, `no release ${id}`);
    needSection(actor, release.section);
  }

  function needMessages(actor: Actor): MessagesAdmin {
    needScope(actor, 'messages', 'read or delete contact messages');
    if (!options.messages) throw new Refusal(503, 'the contact messages are not available on this server');
    return options.messages;
  }

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...headers,
    });
    res.end(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (fromBrowser(req)) throw new Refusal(403, 'the control API does not answer browsers');
    const address = req.socket.remoteAddress ?? 'unknown';

    const header = req.headers.authorization ?? '';
    const bearer = /^Bearer +(\S+)\s*$/i.exec(header)?.[1];
    if (!bearer) throw new Refusal(401, 'a token is needed: Authorization: Bearer <token>', {}, { 'WWW-Authenticate': 'Bearer' });
    // A valid token is always let in: the limit slows guessing, and must not
    // let anyone who shares the owner's address (any local process, every
    // runner behind a CI proxy) lock the owner out.
    const actor = await store.authenticate(bearer);
    if (!actor) {
      const wait = limit.retryAfter(address);
      if (wait !== undefined) throw new Refusal(429, `too many failed authentications from ${address}; try again in ${wait} s`, {}, { 'Retry-After': String(wait) });
      limit.fail(address);
      log(`control: a request from ${address} with an unknown or revoked token (${req.method} ${req.url?.split('?')[0]})`);
      throw new Refusal(401, 'the token is unknown or revoked', {}, { 'WWW-Authenticate': 'Bearer' });
    }

    const url = new URL(req.url ?? '/', 'http://control.invalid');
    const matching = routes.filter((route) => route.pattern.test(url.pathname));
    if (matching.length === 0) throw new Refusal(404, `no such endpoint: ${url.pathname}`);
    const route = matching.find((candidate) => candidate.method === req.method);
    if (!route) throw new Refusal(405, `${req.method} is not answered here`, {}, { Allow: matching.map((candidate) => candidate.method).join(', ') });
    let params: string[];
    try {
      params = route.pattern.exec(url.pathname)!.slice(1).map(decodeURIComponent);
    } catch {
      throw new Refusal(400, 'the path is not valid percent-encoding');
    }

    let read: Promise<unknown> | undefined;
    const body = () =>
      (read ??= readBody(req, { limit: CONTROL_BODY_LIMIT, timeMs: BODY_TIME_MS }).then((result) => {
        if (!result.ok) throw new Refusal(result.status, result.error, {}, result.status === 400 ? {} : { Connection: 'close' });
        if (result.text.trim() === '') return {};
        try {
          return JSON.parse(result.text) as unknown;
        } catch {
          throw new Refusal(400, 'the body is not valid JSON');
        }
      }));
    const [status, answer] = await route.handle({ actor, url, body }, params);
    send(res, status, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res)
      .catch((error: unknown) => {
        if (error instanceof Refusal) return send(res, error.status, { error: error.message, ...error.extra }, error.headers);
        if (error instanceof ReleaseError) return send(res, STATUS_OF[error.kind], { error: error.message, ...(error.field ? { field: error.field } : {}) });
        // Anything else is the database (or a check run) failing under us: the state is unchanged, so try again later.
        log(`control: ${req.method} ${req.url?.split('?')[0]} failed: ${(error as Error).message}`);
        send(res, 503, { error: 'the release database is unavailable; nothing was changed, try again' }, { 'Retry-After': '5' });
      })
      .finally(() => {
        // A body the handler did not read (a refusal before it) is drained, not left in the socket.
        if (!req.readableEnded) req.resume();
      });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000 + BODY_TIME_MS;

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `the control API's port ${options.port} on ${options.host ?? '127.0.0.1'} is taken (PORT=N moves it to N+4)`
            : `the control API cannot listen on ${options.host ?? '127.0.0.1'}:${options.port}: ${error.message}`,
        ),
      ),
    );
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    port,
    url: `http://${host}:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // Runs of held-back publishes not yet summed up are written now, not lost.
      for (const timer of heldBackTimers) clearTimeout(timer);
      await auditHeldBack(refusedPublishes.takeEnded(Date.now(), true));
    },
  };
}
