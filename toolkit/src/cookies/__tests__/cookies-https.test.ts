/**
 * @jest-environment-options {"url": "https://portico.example/"}
 */
import { getCookie, setLongCookie } from '../cookies';
import { attributesOf, recordCookieWrites } from './record-cookie-writes';

test('on an HTTPS page a long cookie is Secure by default, and still readable', () => {
  const recorder = recordCookieWrites();
  try {
    setLongCookie('lang', 'en');

    expect(window.location.protocol).toBe('https:');
    expect(attributesOf(recorder.writes[0] ?? '').has('secure')).toBe(true);
    expect(getCookie('lang')).toBe('en');
  } finally {
    recorder.stop();
  }
});

test('secure: false leaves the Secure flag off even on HTTPS', () => {
  const recorder = recordCookieWrites();
  try {
    setLongCookie('lang', 'en', { secure: false });

    expect(attributesOf(recorder.writes[0] ?? '').has('secure')).toBe(false);
  } finally {
    recorder.stop();
  }
});
