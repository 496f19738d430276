import { CONTACT_PATH, FIELD_LIMITS, type ContactRequest, type TextField } from '@portico/contract/contact-wire';

/** The specification's HTTP timeout (point 7), the same as the toolkit's clients. */
const SEND_TIMEOUT_MS = 60_000;

/** What became of one send, in the terms the visitor is told. */
export type SendOutcome =
  | { kind: 'stored'; id: string }
  /** 5xx: the server is up but cannot take the message now (503: its store is down). */
  | { kind: 'busy' }
  /** 429; `retryAfterSeconds` from `Retry-After` when the server gave one. */
  | { kind: 'rate-limited'; retryAfterSeconds?: number }
  /** 400; `field` when it is one the visitor typed. */
  | { kind: 'invalid'; field?: TextField }
  /** 413 */
  | { kind: 'too-long' }
  /** 409: an earlier body was stored under this key, so a retry needs a new one. */
  | { kind: 'conflict' }
  /** 403, 415 and any other 4xx: the server refused it and would refuse it again. */
  | { kind: 'refused'; status: number }
  /** No endpoint (static hosting: 404, 405, or a page instead of JSON). */
  | { kind: 'unavailable' }
  /** The request never got an answer: offline, DNS, connection reset, blocked. */
  | { kind: 'offline' }
  | { kind: 'timeout' };

export interface SendOptions {
  timeoutMs?: number;
}

const TEXT_FIELDS: readonly string[] = Object.keys(FIELD_LIMITS);

function isJson(response: Response): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '');
}

/** `Retry-After` is delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The answer's JSON object, or undefined for anything else; a body that stops arriving throws (timeout, offline). */
async function readJson(response: Response): Promise<Record<string, unknown> | undefined> {
  if (!isJson(response)) return undefined;
  const text = await response.text();
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function outcomeOf(response: Response): Promise<SendOutcome> {
  const { status } = response;
  if (status === 200 || status === 201) {
    const body = await readJson(response);
    // A static host may answer any path with its index.html: that is no storage.
    return typeof body?.id === 'string' ? { kind: 'stored', id: body.id } : { kind: 'unavailable' };
  }
  if (status === 404 || status === 405 || status === 501) return { kind: 'unavailable' };
  if (status === 429) return { kind: 'rate-limited', retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')) };
  if (status >= 500) return { kind: 'busy' };
  if (status === 400) {
    const field = (await readJson(response))?.field;
    return typeof field === 'string' && TEXT_FIELDS.includes(field) ? { kind: 'invalid', field: field as TextField } : { kind: 'invalid' };
  }
  if (status === 413) return { kind: 'too-long' };
  if (status === 409) return { kind: 'conflict' };
  if (status >= 400) return { kind: 'refused', status };
  // 1xx never reach here; 204, 3xx (redirects are followed) and the like are not the endpoint's answers.
  return { kind: 'unavailable' };
}

/**
 * Posts one message with `fetch` and says what became of it; it never
 * throws. The timer covers reading the answer too, so a server that sends
 * headers and then stalls is a timeout as well.
 */
export async function sendContactMessage(request: ContactRequest, { timeoutMs = SEND_TIMEOUT_MS }: SendOptions = {}): Promise<SendOutcome> {
  const controller = new AbortController();
  let timedOut = false;
  // A plain timer rather than AbortSignal.timeout(): the page's clock, which
  // tests can move, drives it, and it is cleared once the answer is read.
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const response = await fetch(CONTACT_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(request),
      credentials: 'same-origin',
      cache: 'no-store',
      signal: controller.signal,
    });
    return await outcomeOf(response);
  } catch {
    return timedOut ? { kind: 'timeout' } : { kind: 'offline' };
  } finally {
    clearTimeout(timer);
  }
}
