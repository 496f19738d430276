import type { IncomingMessage } from 'node:http';
import { CSRF_HEADER, SESSION_COOKIE, sessionRoutes } from '@portico/control-contract';
import { HttpRefusal } from '@portico/platform/http';

// How a browser is let into the control API: only the operator console, on
// its own origin, with its session cookie and that session's anti-forgery
// value in a header (docs/console.md, "Sessions"). Cookies do not separate
// ports, so the page's origin (localhost:PORT, where section code runs)
// sends the console's cookie too: SameSite does not stop it, the origin
// check and the header do.

/** Sessions a request may carry at once: its own, and as many as another page of this host planted beside it (other paths). */
const COOKIES_TRIED = 4;

/** The session cookie's values, in the order sent (a longer path first), at most COOKIES_TRIED. */
function sessionCookiesOf(req: IncomingMessage): string[] {
  const values: string[] = [];
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = pair.trim().split('=');
    const joined = value.join('=');
    if (name === SESSION_COOKIE && joined !== '' && values.length < COOKIES_TRIED) values.push(joined);
  }
  return values;
}

/** The session cookie's value, if the request carries one (the first). */
export function sessionCookieOf(req: IncomingMessage): string | undefined {
  return sessionCookiesOf(req)[0];
}

/** The anti-forgery header's value, if sent once. */
function csrfOf(req: IncomingMessage): string | undefined {
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

/**
 * What the console's browser request must carry past the origin check: the
 * session cookie (those sent) and the anti-forgery header, every request
 * but the sign-in, "who am I" included. The header's value is what only
 * the console's own origin holds (its tab's storage): a cookie planted from
 * another port of this host (cookies do not separate ports) comes without
 * it, and signs nothing in.
 */
export function sessionRequest(req: IncomingMessage, path: string): { signIn: true } | { signIn: false; cookies: string[]; csrf: string } {
  if (isSignIn(req, path)) return { signIn: true };
  const cookies = sessionCookiesOf(req);
  if (cookies.length === 0) throw new HttpRefusal(401, 'sign in to the console first: this request carries no session');
  const csrf = csrfOf(req);
  if (csrf === undefined) throw new HttpRefusal(403, `a console request carries its session's ${CSRF_HEADER} header`);
  return { signIn: false, cookies, csrf };
}
