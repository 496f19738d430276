import { formatAmount } from '../format-amount';

describe('formatAmount', () => {
  test.each([
    [123456, '1234.56'],
    [100, '1.00'],
    [5, '0.05'],
    [0, '0.00'],
    [-0, '0.00'],
    [-123456, '-1234.56'],
    [-5, '-0.05'],
    [200000, '2000.00'],
  ])('shows %p cents as %p: divided by 100, two decimals, no grouping', (cents, shown) => {
    expect(formatAmount(cents)).toBe(shown);
  });

  test('divides large whole amounts exactly, without exponent or rounding', () => {
    expect(formatAmount(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
    expect(formatAmount(-Number.MAX_SAFE_INTEGER)).toBe('-90071992547409.91');
    expect(formatAmount(1e21)).toBe('10000000000000000000.00');
  });

  test('rounds a fraction of a cent half away from zero', () => {
    expect(formatAmount(12.5)).toBe('0.13');
    expect(formatAmount(12.4)).toBe('0.12');
    expect(formatAmount(-12.5)).toBe('-0.13');
    expect(formatAmount(-0.4)).toBe('0.00');
  });

  test.each([
    ['123456', '1234.56'],
    [' 123456 ', '1234.56'],
    ['-5', '-0.05'],
    ['+100', '1.00'],
    ['12345678901234567890', '123456789012345678.90'],
    ['12.5', '0.13'],
  ])('accepts the digit string %p', (cents, shown) => {
    expect(formatAmount(cents)).toBe(shown);
  });

  test.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '', '  ', 'abc', '12abc', '1e3', '0x10', '1,000', '.5'])(
    'gives an empty string for %p rather than a made-up amount',
    (cents) => {
      expect(formatAmount(cents)).toBe('');
    },
  );
});
