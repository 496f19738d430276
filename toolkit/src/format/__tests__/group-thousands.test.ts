import { groupThousands } from '../group-thousands';

describe('groupThousands', () => {
  test.each([
    [1234567, '1.234.567'],
    [1000000, '1.000.000'],
    [15000000, '15.000.000'],
    [1234, '1.234'],
    [999, '999'],
    [0, '0'],
    [-0, '0'],
    [-1234567, '-1.234.567'],
  ])('groups %p as %p', (value, shown) => {
    expect(groupThousands(value)).toBe(shown);
  });

  test('rounds a fraction to the nearest whole number, half away from zero', () => {
    expect(groupThousands(1234.5)).toBe('1.235');
    expect(groupThousands(1234.4)).toBe('1.234');
    expect(groupThousands(-1234.5)).toBe('-1.235');
    expect(groupThousands(-0.4)).toBe('0');
  });

  test('groups huge numbers without an exponent', () => {
    expect(groupThousands(Number.MAX_SAFE_INTEGER)).toBe('9.007.199.254.740.991');
    expect(groupThousands(1e21)).toBe('1.000.000.000.000.000.000.000');
    expect(groupThousands('12345678901234567890')).toBe('12.345.678.901.234.567.890');
  });

  test.each([
    ['1234567', '1.234.567'],
    ['-1000', '-1.000'],
    ['1234.5', '1.235'],
  ])('accepts the digit string %p', (value, shown) => {
    expect(groupThousands(value)).toBe(shown);
  });

  test.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '', 'abc', '1.234.567', '1e6'])('gives an empty string for %p', (value) => {
    expect(groupThousands(value)).toBe('');
  });
});
