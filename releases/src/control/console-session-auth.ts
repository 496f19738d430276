import type { IncomingMessage } from 'node:http';
import { CSRF_HEADER } from '@portico/platform/api';
import { HttpRefusal } from '@portico/platform/http';
import { SESSION_COOKIE, sessionRoutes } from './control-contract';

// How a browser is let into the control API: only the operator console, on
// its own origin, with its session cookie and that session's anti-forgery
// value in a header (docs/console.md, "Sessions"). Cookies do not separate
// ports, so the page's origin (localhost:PORT, where section code runs)
// sends the console's cookie too: SameSite does not stop it, the origin
// check and the header do.

/** The session cookie's value, if the request carries one. */
export function sessionCookieOf(req: IncomingMessage): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = pair.trim().split('=');
    if (name === SESSION_COOKIE && value.length > 0) return value.join('=') || undefined;
  }
  return undefined;
}

/** The anti-forgery header's value, if sent once. */
export function csrfOf(req: IncomingMessage): string | undefined {
  const value = req.headers[CSRF_HEADER.toLowerCase()];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Why a browser's request is not the console's own, or undefined when it
 * is: Sec-Fetch-Site, where sent, is `same-origin`, and Origin, where sent,
 * is the request's own host (what the browser reached). A browser sets both
 * itself; a page cannot forge them.
 */
export function foreignOrigin(req: IncomingMessage): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return `Sec-Fetch-Site: ${String(site)}`;
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  return host !== undefined && host === req.headers.host ? undefined : `Origin: ${origin}`;
}

/** The console was reached over https (directly, or as its Origin says through a proxy): the cookie is then Secure. */
export function reachedOverHttps(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true || (req.headers.origin ?? '').startsWith('https://');
}

/** The Set-Cookie of a new session, for `seconds` (its absolute lifetime). */
export function sessionCookie(id: string, seconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/; Max-Age=${seconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie that removes the session cookie from the browser. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

const SESSION_PATH = sessionRoutes.create.path;

/** A console sign-in (`POST /api/session`): its route checks the token it carries. */
export const isSignIn = (req: IncomingMessage, path: string) => req.method === 'POST' && path === SESSION_PATH;

/** What the console's browser request must carry past the origin check, and the one request that may go without the header. */
export function sessionRequest(req: IncomingMessage, path: string): { signIn: true } | { signIn: false; cookie: string; csrf: string | undefined } {
  if (isSignIn(req, path)) return { signIn: true };
  const cookie = sessionCookieOf(req);
  if (cookie === undefined) throw new HttpRefusal(401, 'sign in to the console first: this request carries no session');
  const csrf = csrfOf(req);
  // "Who am I" without the header, from the console's own page only (the browser says so): how a reloaded page gets the session's CSRF value back.
  const reload = req.method === 'GET' && path === SESSION_PATH && req.headers['sec-fetch-site'] === 'same-origin';
  if (csrf === undefined && !reload) throw new HttpRefusal(403, `a console request carries its session's ${CSRF_HEADER} header`);
  return { signIn: false, cookie, csrf };
}
