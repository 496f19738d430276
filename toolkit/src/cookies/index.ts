export { getCookie, LONG_COOKIE_EXPIRES, removeCookie, setLongCookie, type LongCookieOptions, type RemoveCookieOptions } from './cookies';
