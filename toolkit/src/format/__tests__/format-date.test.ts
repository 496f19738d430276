/**
 * @jest-environment ../testing/time-zone-environment.cjs
 * @jest-environment-options {"timeZone": "Asia/Kolkata"}
 */
// India is UTC+05:30 all year: midnight there is 18:30 UTC the day before, so
// a helper that formats in UTC by mistake gets the wrong day here.
import { formatDate } from '../format-date';

test('the tests really run in Kolkata time', () => {
  expect(new Date('2026-11-20T18:30:00Z').getTimezoneOffset()).toBe(-330);
});

describe('formatDate', () => {
  test('formats the local day, which has already begun at 18:30 UTC', () => {
    expect(formatDate(new Date('2026-11-20T18:30:00Z'))).toBe('2026-11-21');
    expect(formatDate(new Date('2026-11-20T18:29:59Z'))).toBe('2026-11-20');
  });

  test('adds the local time on a 24-hour clock with withTime', () => {
    expect(formatDate(new Date('2026-11-20T18:30:00Z'), { withTime: true })).toBe('2026-11-21 00:00:00');
    expect(formatDate(new Date('2026-11-20T18:29:59Z'), { withTime: true })).toBe('2026-11-20 23:59:59');
    expect(formatDate(new Date('2026-11-21T08:05:09Z'), { withTime: true })).toBe('2026-11-21 13:35:09');
  });

  test('pads months, days and hours with a zero', () => {
    expect(formatDate(new Date(2026, 0, 2, 3, 4, 5), { withTime: true })).toBe('2026-01-02 03:04:05');
  });

  test('takes epoch milliseconds', () => {
    expect(formatDate(Date.UTC(2026, 10, 20, 18, 30), { withTime: true })).toBe('2026-11-21 00:00:00');
  });

  test('reads an ISO string with a zone in that zone, and one without a zone as local time', () => {
    expect(formatDate('2026-11-20T18:30:00Z', { withTime: true })).toBe('2026-11-21 00:00:00');
    expect(formatDate('2026-11-21')).toBe('2026-11-21');
    expect(formatDate('2026-11-21T00:00:00', { withTime: true })).toBe('2026-11-21 00:00:00');
  });

  test.each([
    ['an invalid Date', new Date('not a date')],
    ['NaN milliseconds', Number.NaN],
    ['an empty string', ''],
    ['text that is not a date', 'tomorrow'],
    ['an impossible day', '2026-02-30'],
  ])('gives an empty string for %s, with or without time', (_case, input) => {
    expect(formatDate(input)).toBe('');
    expect(formatDate(input, { withTime: true })).toBe('');
  });
});
