import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { previewTokenIn } from '@portico/contract/preview';
import type { ServedState } from '@portico/releases';
import { COHORT_COOKIE, COHORT_DAYS } from './served-releases';
import { requestTarget } from './static-files';

/** A visitor's cohort, for one request: the bucket it is served by (none: the active releases), and the cookie to set when it was drawn now. */
export interface Cohort {
  bucket: number | undefined;
  setCookie?: string;
}

/**
 * The cohort of a request while a canary runs: the visitor's cookie, or, on
 * a page answer without one, a bucket drawn now and set (30 days), so a new
 * browser can land in the candidate. Other answers without a cookie
 * (config.json, the theme) get the active releases. No canary: no cohort,
 * no cookie. A preview visit (`?preview=`, valid or not) draws none either:
 * it sets no cookie, as a preview promises, and its other sections get a
 * cohort's releases only from a cookie the browser already has. A bucket is
 * drawn at each call: the caller keeps one per request (HostSite.cohortOf),
 * so every part of the answer gets the same.
 */
export function cohortOf(req: IncomingMessage, state: ServedState, secure: boolean): Cohort {
  let cohort: Cohort = { bucket: undefined };
  if (Object.keys(state.canaries).length > 0) {
    const given = parseCookies(req.headers.cookie ?? '')[COHORT_COOKIE];
    const target = requestTarget(req.url);
    const pathname = target?.pathname;
    if (given !== undefined && /^\d{1,2}$/.test(given)) {
      cohort = { bucket: Number(given) };
    } else if ((pathname === '/' || pathname === '/index.html') && previewTokenIn(target?.search ?? '') === undefined) {
      const bucket = randomInt(100);
      cohort = {
        bucket,
        setCookie: serializeCookie(COHORT_COOKIE, String(bucket), { path: '/', sameSite: 'lax', httpOnly: true, secure, maxAge: COHORT_DAYS * 86_400 }),
      };
    }
  }
  return cohort;
}
