import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { CONTACT_BODY_LIMIT, CONTACT_PATH } from '@portico/contract/contact-wire';
import { BODY_TIME_MS, sendJson } from '@portico/platform/http';
import { parseContact, type ContactField } from '../contact-message';
import type { MessageStore, RateLimit } from '../store/message-store';
import { clientBlock, clientNetwork } from './client-network';

/** Where a request came from, as the endpoint needs it. */
export interface RequestOrigin {
  /** The page's own origin as the visitor's browser sees it, e.g. `https://lender.example`. */
  origin: string | undefined;
  /** The client's address, the rate limit's key. */
  address: string;
}

/** The server's one reading of a request's origin and address (behind a trusted proxy, its X-Forwarded-*). */
export type RequestOriginOf = (req: IncomingMessage) => RequestOrigin;

/** What `POST /api/contact` stores into and how it reads a request. */
export interface ContactEndpoint {
  store: Pick<MessageStore, 'submit'>;
  /** The page's own origin and the client's address for a request. */
  requestOrigin: RequestOriginOf;
  /** Undefined lifts the limit (PORTICO_CONTACT_RATE_LIMIT=0). */
  rateLimit?: RateLimit;
  /** Called once a message is stored, so delivery need not wait for its next poll. */
  onStored?: () => void;
  /** How long the body may take to arrive (BODY_TIME_MS). */
  bodyTimeMs?: number;
}

export interface ApiRoutesOptions {
  /** The endpoint, or undefined while the store is still opening: every `/api/` path then answers 503 with Retry-After. */
  endpoint: () => ContactEndpoint | undefined;
  /** The server's security headers, sent with every answer. */
  headers: Readonly<Record<string, string>>;
}

/** The `Origin` a browser sends, when it is a plain `scheme://host[:port]` (not `null`, not garbage). */
function originHeader(req: IncomingMessage): string | undefined {
  const value = req.headers.origin;
  if (!value) return undefined;
  try {
    return new URL(value).origin === value ? value : undefined;
  } catch {
    return undefined;
  }
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  // JSON is UTF-8 (RFC 8259); a body declared in another charset is refused, not misread.
  return parameters.every((parameter) => !parameter.startsWith('charset=') || parameter === 'charset=utf-8');
}

const STORE_DOWN = 'messages cannot be stored just now; please try again';

/**
 * `POST /api/contact`, and the JSON answers of every other path under
 * `/api/` on the host's port (404, or 503 while the store opens), on an app
 * that registered the root plugin first (@portico/platform/http's
 * httpRoot: its body parser, its error handler, the security headers). The
 * request is checked in the order of the contract (method, origin, type,
 * size, body) before the message is stored: the method, the origin and the
 * type before a byte of the body is read. Every answer is JSON with the
 * server's security headers; nothing the visitor sent is echoed back but
 * the id the server made.
 */
export const apiRoutes: FastifyPluginCallback<ApiRoutesOptions> = (app, { endpoint, headers }, done) => {
  const answer = (reply: FastifyReply, status: number, body: Record<string, unknown>, extra: Record<string, string> = {}) =>
    sendJson(reply, status, body, { ...headers, ...extra });
  const storeOpening = (reply: FastifyReply) => answer(reply, 503, { error: STORE_DOWN }, { 'Retry-After': '5' });

  /** What may be refused before the body is read: the store opening, the method, the origin and the type. */
  const precheck = (request: FastifyRequest, reply: FastifyReply, next: () => void) => {
    const contact = endpoint();
    if (!contact) return storeOpening(reply);
    if (request.method !== 'POST') return answer(reply, 405, { error: 'only POST is accepted here' }, { Allow: 'POST' });
    const { origin: ownOrigin } = contact.requestOrigin(request.raw);
    const origin = originHeader(request.raw);
    if (!origin || !ownOrigin || origin !== ownOrigin) return answer(reply, 403, { error: "messages are accepted from this site's own pages only" });
    if (!isJson(request.headers['content-type'])) return answer(reply, 415, { error: 'the body must be application/json' });
    next();
  };

  app.route({
    method: app.supportedMethods,
    url: CONTACT_PATH,
    exposeHeadRoute: false,
    // Read by the root plugin's one parser (httpRoot), as text: submit parses it (its own refusal of what is not JSON).
    config: { body: { as: 'text', limits: () => ({ limit: CONTACT_BODY_LIMIT, timeMs: endpoint()?.bodyTimeMs ?? BODY_TIME_MS }) } },
    onRequest: (request, reply, next) => void precheck(request, reply, next),
    handler: async (request, reply) => {
      const contact = endpoint()!;
      return submit(contact, request, reply, answer);
    },
  });
  app.route({
    method: app.supportedMethods,
    url: '/api/*',
    exposeHeadRoute: false,
    onRequest: (_request, reply) => void (endpoint() ? answer(reply, 404, { error: 'no such endpoint' }) : storeOpening(reply)),
    handler: () => undefined,
  });
  done();
};

type Answer = (reply: FastifyReply, status: number, body: Record<string, unknown>, extra?: Record<string, string>) => FastifyReply;

/** What became of a message received, by either door (the JSON API, the form without script). */
export type Received =
  | { kind: 'invalid'; error: string; field?: ContactField }
  | { kind: 'stored' | 'repeated'; id: string }
  | { kind: 'conflict' }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | { kind: 'unavailable' };

/**
 * A body (parsed, not yet checked) validated and stored, under the rate
 * limit: the one path every message takes, so the JSON API and the form
 * without script hold the same rules. Nothing typed is ever logged.
 */
export async function receiveMessage(contact: ContactEndpoint, body: unknown, request: FastifyRequest): Promise<Received> {
  const parsed = parseContact(body);
  if (!parsed.ok) return { kind: 'invalid', error: parsed.error, ...(parsed.field ? { field: parsed.field } : {}) };
  if (parsed.honeypot) {
    // A bot learns nothing: the same answer as a stored message, and nothing stored. Logged without the address (docs/privacy.md).
    request.log.info('contact: dropped a message whose hidden field was filled');
    return { kind: 'stored', id: randomUUID() };
  }
  const { address } = contact.requestOrigin(request.raw);
  let outcome;
  try {
    outcome = await contact.store.submit(parsed.message, {
      // Counted per network: an IPv6 host has a /64 of addresses to choose from, and its /48 is bounded as a whole.
      address: clientNetwork(address),
      block: clientBlock(address),
      rateLimit: contact.rateLimit,
      // Kept with the message: the lines this request logged, found from the message.
      requestId: request.id,
    });
  } catch (error) {
    request.log.error({ err: error }, 'contact: the message store is unavailable');
    return { kind: 'unavailable' };
  }
  if (outcome.kind === 'stored') contact.onStored?.();
  return outcome;
}

/** A checked request's body, parsed, validated and stored. */
async function submit(contact: ContactEndpoint, request: FastifyRequest, reply: FastifyReply, answer: Answer): Promise<FastifyReply> {
  let json: unknown;
  try {
    json = JSON.parse(request.body as string);
  } catch {
    return answer(reply, 400, { error: 'the body is not valid JSON' });
  }
  const received = await receiveMessage(contact, json, request);
  switch (received.kind) {
    case 'invalid':
      return answer(reply, 400, { error: received.error, ...(received.field ? { field: received.field } : {}) });
    case 'stored':
      return answer(reply, 201, { id: received.id });
    case 'repeated':
      return answer(reply, 200, { id: received.id });
    case 'conflict':
      return answer(reply, 409, { error: 'this idempotencyKey was used for a different message' });
    case 'rate-limited':
      return answer(
        reply,
        429,
        { error: 'too many messages from this address; please try again later' },
        { 'Retry-After': String(received.retryAfterSeconds) },
      );
    case 'unavailable':
      return answer(reply, 503, { error: STORE_DOWN });
  }
}
