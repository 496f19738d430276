import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CONTACT_BODY_LIMIT, CONTACT_PATH } from '@portico/contract/contact-wire';
import { parseContact } from '../contact-message';
import type { MessageStore, RateLimit } from '../store/message-store';
import { clientNetwork } from './client-network';
import { readBody } from './read-body';


/**
 * 5 s to send the body once its headers are in: a real message (at most about
 * 21 KB, most under 2 KB) takes well under a second even on a slow mobile
 * link, and 64 KB needs about 13 KB/s. A client that trickles it gets 408.
 */
export const BODY_TIME_MS = 5_000;

/** Where a request came from, as the endpoint needs it. */
export interface RequestOrigin {
  /** The page's own origin as the visitor's browser sees it, e.g. `https://lender.example`. */
  origin: string | undefined;
  /** The client's address, the rate limit's key. */
  address: string;
}

/** The server's one reading of a request's origin and address (behind a trusted proxy, its X-Forwarded-*). */
export type RequestOriginOf = (req: IncomingMessage) => RequestOrigin;

export interface ContactEndpointOptions {
  store: Pick<MessageStore, 'submit'>;
  /** The page's own origin and the client's address for a request. */
  requestOrigin: RequestOriginOf;
  /** The server's security headers, sent with every answer. */
  headers: Readonly<Record<string, string>>;
  /** Undefined lifts the limit (PORTICO_CONTACT_RATE_LIMIT=0). */
  rateLimit?: RateLimit;
  log: (line: string) => void;
  /** Called once a message is stored, so delivery need not wait for its next poll. */
  onStored?: () => void;
  /** How long the body may take to arrive (BODY_TIME_MS). */
  bodyTimeMs?: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

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

/**
 * `POST /api/contact`: checks the request in the order of the README's
 * contract (method, origin, type, size, body), then stores the message.
 * Every answer is JSON with the server's security headers; nothing the
 * visitor sent is echoed back but the id the server made.
 */
export function contactEndpoint(options: ContactEndpointOptions): Handler {
  const answer = (res: ServerResponse, status: number, body: Record<string, unknown>, extra: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...options.headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
      'Cache-Control': 'no-store',
      ...extra,
    });
    res.end(text);
  };

  return (req, res) => {
    if (req.method !== 'POST') return answer(res, 405, { error: 'only POST is accepted here' }, { Allow: 'POST' });

    const { origin: ownOrigin, address } = options.requestOrigin(req);
    const origin = originHeader(req);
    if (!origin || !ownOrigin || origin !== ownOrigin) {
      req.resume();
      return answer(res, 403, { error: 'messages are accepted from this site\'s own pages only' });
    }
    if (!isJson(req.headers['content-type'])) {
      req.resume();
      return answer(res, 415, { error: 'the body must be application/json' });
    }

    void readBody(req, CONTACT_BODY_LIMIT, options.bodyTimeMs ?? BODY_TIME_MS)
      .then(async (body) => {
        // After 413 or 408 the rest of the body is not waited for.
        if (!body.ok) return answer(res, body.status, { error: body.error }, body.status === 400 ? {} : { Connection: 'close' });
        let json: unknown;
        try {
          json = JSON.parse(body.text);
        } catch {
          return answer(res, 400, { error: 'the body is not valid JSON' });
        }
        const parsed = parseContact(json);
        if (!parsed.ok) return answer(res, 400, { error: parsed.error, ...(parsed.field ? { field: parsed.field } : {}) });
        if (parsed.honeypot) {
          // A bot learns nothing: the same answer as a stored message, and nothing stored.
          options.log(`contact: dropped a message whose hidden field was filled (from ${address})`);
          return answer(res, 201, { id: randomUUID() });
        }

        let outcome;
        try {
          // Counted per network: an IPv6 host has a /64 of addresses to choose from.
          outcome = await options.store.submit(parsed.message, { address: clientNetwork(address), rateLimit: options.rateLimit });
        } catch (error) {
          options.log(`contact: the message store is unavailable: ${(error as Error).message}`);
          return answer(res, 503, { error: 'messages cannot be stored just now; please try again' });
        }
        switch (outcome.kind) {
          case 'stored':
            options.onStored?.();
            return answer(res, 201, { id: outcome.id });
          case 'repeated':
            return answer(res, 200, { id: outcome.id });
          case 'conflict':
            return answer(res, 409, { error: 'this idempotencyKey was used for a different message' });
          case 'rate-limited':
            return answer(res, 429, { error: 'too many messages from this address; please try again later' }, { 'Retry-After': String(outcome.retryAfterSeconds) });
        }
      })
      .catch((error: unknown) => {
        options.log(`contact: ${(error as Error).message}`);
        if (!res.headersSent) answer(res, 500, { error: 'internal error' });
      });
  };
}

/**
 * `/api/` while the store is still opening (the server does not wait for it
 * to listen): 503 with Retry-After, the answer of a store that is down.
 */
export function storeOpeningApi(headers: Readonly<Record<string, string>>): Handler {
  const text = JSON.stringify({ error: 'messages cannot be stored just now; please try again' });
  return (req, res) => {
    req.resume();
    res.writeHead(503, {
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
      'Cache-Control': 'no-store',
      'Retry-After': '5',
    });
    res.end(text);
  };
}

/**
 * Everything under `/api/` on the host's port: the contact endpoint, and a
 * JSON 404 for any other path.
 */
export function apiHandler(options: ContactEndpointOptions): Handler {
  const contact = contactEndpoint(options);
  return (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === CONTACT_PATH) return contact(req, res);
    req.resume();
    const text = JSON.stringify({ error: 'no such endpoint' });
    res.writeHead(404, { ...options.headers, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(text);
  };
}
