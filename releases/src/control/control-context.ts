import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SectionId } from '@portico/contract/sections';
import type { ContactService } from '@portico/messages';
import { type AnswerIn, type ApiRoute, DEFAULT_RELEASE_POLICY, policyAllows, policyRefusal, type ReleasePolicy } from '@portico/control-contract';
import { HttpRefusal, sendJson, COMMON_HEADERS } from '@portico/platform/http';
import { silentLogger, type Logger } from '@portico/platform/logging';
import type { Actor, Scope } from '../release';
import { mayActOn, visibleSections } from '../scopes';
import { retiredProblem } from '../store/section-lock';
import type { OpenSession } from '../console/console-sessions';
import type { ReleaseStore } from '../store/release-store';
import { FailedAuthLimit } from './failed-auth-limit';
import { PublishGate } from './publish-gate';

/** The contact messages' operations the control API offers to a `messages` token, each audited under its name, and their audit log. */
export type MessagesAdmin = Pick<ContactService['store'], 'operator' | 'accessLog'>;

/** What every area's routes share (ControlApiOptions holds these among the rest, which only the areas that need them are given). */
export interface ControlContextOptions {
  store: ReleaseStore;
  /** The control API's logger (Fastify's too: each request's lines carry its reqId); silent without one. */
  log?: Logger;
  /** The contact messages; without them `/api/messages` answers 503. */
  messages?: MessagesAdmin;
  /** Where this server delivers contact messages (PORTICO_WEBHOOK_URL, PORTICO_SMTP_URL); none or absent: nowhere. */
  messageChannels?: readonly ('webhook' | 'mail')[];
  /** Failed authentications allowed per address and window before 429 (10 a minute by default). */
  failedAuth?: { max: number; windowMs: number };
  /** Refused publishes allowed per token and window before its publishes answer 429 (10 in 10 minutes by default). */
  refusedPublishes?: { max: number; windowMs: number };
}

/**
 * What every area's routes share: the store, the log, the token a request
 * was authenticated with, and the checks each route makes in the brief's
 * order (an unknown section 404, a section the token does not cover 403)
 * before it reads its body. What one area alone needs (the publish checks,
 * the health series…) is that area's plugin option, not this.
 */
export class ControlContext {
  private readonly actors = new WeakMap<FastifyRequest, Actor>();
  private readonly sessions = new WeakMap<FastifyRequest, { id: string; session: OpenSession }>();
  /** The publish route's limit on refused publishes per token. */
  readonly publishes: PublishGate;
  /** Failed authentications per address: bad bearer tokens and failed console sign-ins alike. */
  readonly failedAuth: FailedAuthLimit;

  readonly store: ReleaseStore;
  /** The contact messages, when this server has them. */
  readonly messages: MessagesAdmin | undefined;
  readonly messageChannels: readonly ('webhook' | 'mail')[];
  /** What the areas say outside a request (a request's own lines go on `request.log`). */
  readonly log: Logger;

  constructor(options: ControlContextOptions) {
    this.store = options.store;
    this.messages = options.messages;
    this.messageChannels = options.messageChannels ?? [];
    this.log = options.log ?? silentLogger;
    this.publishes = new PublishGate(options.store, this.log, options.refusedPublishes);
    this.failedAuth = new FailedAuthLimit(options.failedAuth?.max, options.failedAuth?.windowMs);
  }

  /** The request's token, once authenticated (the API's first hook). */
  authenticated(request: FastifyRequest, actor: Actor): void {
    this.actors.set(request, actor);
  }

  /** The request came from the console with the session `id` (not a bearer token). */
  authenticatedSession(request: FastifyRequest, id: string, session: OpenSession): void {
    this.actors.set(request, session.actor);
    this.sessions.set(request, { id, session });
  }

  /** The console session a request came with; undefined for a bearer token. */
  sessionOf(request: FastifyRequest): { id: string; session: OpenSession } | undefined {
    return this.sessions.get(request);
  }

  actorOf(request: FastifyRequest): Actor {
    const actor = this.actors.get(request);
    if (!actor) throw new Error('a control API route ran before its request was authenticated');
    return actor;
  }

  /**
   * `text` as a section the catalogue holds, or 404 naming the sections; a
   * retired one 409, unless `retired` (its releases and audit stay readable).
   */
  async sectionOf(text: string | null | undefined, options: { retired?: boolean } = {}): Promise<SectionId> {
    const entries = await this.store.sections.list({ retired: true });
    const entry = entries.find((one) => one.id === text);
    if (!entry)
      throw new HttpRefusal(
        404,
        `no section ${JSON.stringify(text)}: the sections are ${entries
          .filter((one) => !one.retired)
          .map((one) => one.id)
          .join(', ')}`,
      );
    if (entry.retired && !options.retired) throw new HttpRefusal(409, retiredProblem(entry.id));
    return entry.id;
  }

  needSection(actor: Actor, section: string): void {
    if (!mayActOn(actor, section)) throw new HttpRefusal(403, `the token ${actor.name} may not act on ${section}`);
  }

  /** A section a request names (its path's `:section`): known (404), live (409, unless `retired`) and covered by its token (403). */
  async sectionFor(request: FastifyRequest, text: string, options: { retired?: boolean } = {}): Promise<SectionId> {
    const section = await this.sectionOf(text, options);
    this.needSection(this.actorOf(request), section);
    return section;
  }

  /**
   * A section token may take `step` on `section` only as far as the
   * section's release policy lets it (403 naming the policy); an integrator
   * token (`releases`) always may.
   */
  async needPolicy(actor: Actor, section: SectionId, step: ReleasePolicy, what: string): Promise<void> {
    if (actor.scopes.includes('releases')) return;
    const policy = (await this.store.sections.get(section))?.policy ?? DEFAULT_RELEASE_POLICY;
    if (!policyAllows(policy, step)) throw new HttpRefusal(403, policyRefusal(actor.name, section, policy, what));
  }

  needScope(actor: Actor, scope: Scope, what: string): void {
    if (!actor.scopes.includes(scope)) throw new HttpRefusal(403, `the token ${actor.name} may not ${what} (it needs the ${scope} scope)`);
  }

  /** The sections a listing covers: the one asked for, retired or not (which the token must cover), or every live one the token may see. */
  async sectionsToShow(actor: Actor, asked: string | undefined): Promise<SectionId[]> {
    if (asked !== undefined) {
      const section = await this.sectionOf(asked, { retired: true });
      this.needSection(actor, section);
      return [section];
    }
    const visible = visibleSections(
      actor,
      (await this.store.sections.list()).map((entry) => entry.id),
    );
    if (visible.length === 0) throw new HttpRefusal(403, `the token ${actor.name} may act on no section`);
    return visible as SectionId[];
  }

  /** The release `id` must exist (404) and be of a section the token covers (403); its section's match is the store's (409). */
  async needReleaseOf(actor: Actor, id: string): Promise<void> {
    const release = await this.store.releases.get(id);
    if (!release) throw new HttpRefusal(404, `no release ${id}`);
    this.needSection(actor, release.section);
  }

  /** The contact messages, for a token with the messages scope (403), on a server that has them (503). */
  needMessages(actor: Actor): MessagesAdmin {
    this.needScope(actor, 'messages', 'read or delete contact messages');
    if (!this.messages) throw new HttpRefusal(503, 'the contact messages are not available on this server');
    return this.messages;
  }
}

/** Every answer of the control API: JSON, never cached, with the headers every answer of both servers carries. */
export function sendControl(reply: FastifyReply, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): FastifyReply {
  return sendJson(reply, status, body, { ...COMMON_HEADERS, ...headers });
}

/** A route's answer, checked against its contract when compiled: what the handler sends is what the route declares. */
export function answer<R extends ApiRoute>(reply: FastifyReply, _route: R, status: number, body: AnswerIn<R>): FastifyReply {
  return sendControl(reply, status, body);
}
