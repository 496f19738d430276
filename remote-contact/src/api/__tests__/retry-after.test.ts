import { retryAfterSeconds } from '../send-contact-message';

test.each([
  ['120', 120],
  [' 5 ', 5],
  ['0', 0],
  [null, undefined],
  ['', undefined],
  ['soon', undefined],
])('Retry-After %p is %p seconds', (value, seconds) => {
  expect(retryAfterSeconds(value)).toBe(seconds);
});

test('an HTTP date is counted from now, rounded up, and never below zero', () => {
  const now = Date.parse('Mon, 05 Jan 2026 09:00:00 GMT');
  expect(retryAfterSeconds('Mon, 05 Jan 2026 09:01:30 GMT', now)).toBe(90);
  expect(retryAfterSeconds('Mon, 05 Jan 2026 08:59:00 GMT', now)).toBe(0);
});
