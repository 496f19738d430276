import Cookies from 'js-cookie';

/**
 * "Never expires", as the specification puts it (point 9: expiry in the year
 * 9999). Browsers following RFC 6265bis cap any expiry at 400 days from the
 * last write (Chrome since 104), so in practice the cookie lives 400 days
 * after it was last set; setting it again renews it.
 */
export const LONG_COOKIE_EXPIRES = new Date('9999-12-31T23:59:59Z');

export interface LongCookieOptions {
  /** Send the cookie over HTTPS only. By default: when the page itself is served over HTTPS. */
  secure?: boolean;
  /** The paths that see the cookie; the whole site (`/`) by default. */
  path?: string;
}

export interface RemoveCookieOptions {
  /** Must be the path the cookie was set with; `/` by default, as setLongCookie sets it. */
  path?: string;
}

function pageIsHttps(): boolean {
  return globalThis.location?.protocol === 'https:';
}

/**
 * Sets a cookie that outlives the session, for the whole site, SameSite=Lax so
 * it is not sent on cross-site subrequests.
 */
export function setLongCookie(name: string, value: string, options: LongCookieOptions = {}): void {
  const { secure = pageIsHttps(), path = '/' } = options;
  Cookies.set(name, value, { expires: LONG_COOKIE_EXPIRES, sameSite: 'Lax', secure, path });
}

/** The cookie's value, decoded, or undefined when there is no such cookie. */
export function getCookie(name: string): string | undefined {
  return Cookies.get(name);
}

export function removeCookie(name: string, { path = '/' }: RemoveCookieOptions = {}): void {
  Cookies.remove(name, { path });
}
