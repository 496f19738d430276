import type { FastifyRequest } from 'fastify';
import { HttpRefusal } from './json-reply';

/** How a gate's refusals are worded, per route: `reports are accepted from this site's own pages only`. */
export interface GateWords {
  /** Another method than POST (405 with `Allow: POST`); none: the route takes only POST, another route answers the rest. */
  method?: string;
  /** No Origin, or not the page's own (403). */
  origin: string;
  /** A Content-Type the route does not take (415). */
  type: string;
  /** The service behind the route cannot take a request now (503, `Retry-After: 5`). */
  closed: string;
}

export interface PostGateOptions {
  /** Whether the Content-Type is one the route takes. */
  accepts: (contentType: string | undefined) => boolean;
  /** Whether the service behind the route can take a request now (its store open): asked last, after the cheap checks. */
  open: () => boolean | Promise<boolean>;
  words: GateWords;
}

/** The Origin a browser sends, when it is a plain origin (not `null`, not garbage). */
function originHeader(value: string | undefined): string | undefined {
  try {
    return value && new URL(value).origin === value ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What every browser-facing POST of the page's port checks before a byte
 * of its body is read (the beacon's two routes, the no-JavaScript contact
 * form), in one order, cheapest first: the method, the page's own Origin (a
 * browser sends Origin with every POST, so only a page of this site's can
 * send one), the type, then the service being open. A route's `onRequest`
 * hook: a refusal is thrown, and answered in the route's words by the
 * root plugin's error handler (JSON, or text with `config.refusals`).
 */
export function postGate(options: PostGateOptions): (request: FastifyRequest) => Promise<void> {
  const { accepts, open, words } = options;
  return async (request) => {
    if (request.method !== 'POST') throw new HttpRefusal(405, words.method ?? 'Method not allowed', {}, { Allow: 'POST' });
    const own = request.visitor.origin;
    if (!own || originHeader(request.headers.origin) !== own) throw new HttpRefusal(403, words.origin);
    if (!accepts(request.headers['content-type'])) throw new HttpRefusal(415, words.type);
    if (!(await open())) throw new HttpRefusal(503, words.closed, {}, { 'Retry-After': '5' });
  };
}
