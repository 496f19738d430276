// jsdom serves this page from http://localhost/.
import { getCookie, removeCookie, setLongCookie } from '../cookies';
import { attributesOf, recordCookieWrites } from './record-cookie-writes';

let recorder: ReturnType<typeof recordCookieWrites>;

beforeEach(() => {
  recorder = recordCookieWrites();
});

afterEach(() => {
  recorder.stop();
  for (const pair of document.cookie.split('; ').filter(Boolean)) {
    document.cookie = `${pair.split('=')[0]}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});

test('a long cookie can be read back, from document.cookie and through getCookie', () => {
  setLongCookie('lang', 'id');

  expect(document.cookie).toContain('lang=id');
  expect(getCookie('lang')).toBe('id');
});

test('a long cookie expires in the year 9999, for the whole site, SameSite=Lax', () => {
  setLongCookie('lang', 'id');

  expect(recorder.writes).toHaveLength(1);
  const attributes = attributesOf(recorder.writes[0] ?? '');
  expect(attributes.get('expires')).toBe('Fri, 31 Dec 9999 23:59:59 GMT');
  expect(attributes.get('path')).toBe('/');
  expect(attributes.get('samesite')).toBe('Lax');
});

test('over plain HTTP the cookie is not marked Secure, or the browser would drop it', () => {
  setLongCookie('lang', 'id');

  expect(attributesOf(recorder.writes[0] ?? '').has('secure')).toBe(false);
});

test('secure: true marks it Secure whatever the page', () => {
  setLongCookie('lang', 'id', { secure: true });

  expect(attributesOf(recorder.writes[0] ?? '').has('secure')).toBe(true);
});

test('a value with spaces, semicolons and non-ASCII text comes back as it went in', () => {
  setLongCookie('greeting', 'Selamat datang; ₹ 2,000');

  expect(getCookie('greeting')).toBe('Selamat datang; ₹ 2,000');
});

test('getCookie gives undefined for a cookie that is not there', () => {
  expect(getCookie('missing')).toBeUndefined();
});

test('removeCookie removes a long cookie', () => {
  setLongCookie('lang', 'id');
  setLongCookie('theme', 'dark');

  removeCookie('lang');

  expect(getCookie('lang')).toBeUndefined();
  expect(getCookie('theme')).toBe('dark');
  expect(attributesOf(recorder.writes.at(-1) ?? '').get('path')).toBe('/');
});

test('a cookie set for a path is removed with that path', () => {
  setLongCookie('step', '2', { path: '/' });
  removeCookie('step', { path: '/loan' });
  expect(getCookie('step')).toBe('2');

  removeCookie('step', { path: '/' });
  expect(getCookie('step')).toBeUndefined();
});
