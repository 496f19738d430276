import { readWholeNumber, repaymentOf, TERMS } from '../terms';

test('interest is the daily rate over the term, the fee a share of the amount, each rounded once', () => {
  expect(repaymentOf(10_000, 30, TERMS.IN)).toEqual({ interest: 300, fees: 200, total: 10_500 });
  expect(repaymentOf(3_000_000, 30, TERMS.ID)).toEqual({ interest: 270_000, fees: 30_000, total: 3_300_000 });
  expect(repaymentOf(2_345, 7, TERMS.IN)).toEqual({ interest: 16, fees: 47, total: 2_408 });
});

test('each market’s example lies within its own bounds', () => {
  for (const terms of Object.values(TERMS)) {
    expect(terms.example.amount).toBeGreaterThanOrEqual(terms.amount.min);
    expect(terms.example.amount).toBeLessThanOrEqual(terms.amount.max);
    expect(terms.example.days).toBeGreaterThanOrEqual(terms.days.min);
    expect(terms.example.days).toBeLessThanOrEqual(terms.days.max);
  }
});

test('a field reads whole numbers with the market’s group separator and spaces, nothing else', () => {
  const bounds = { min: 2000, max: 80_000 };
  expect(readWholeNumber(' 10,000 ', bounds, ',')).toBe(10_000);
  expect(readWholeNumber('1.000.000', { min: 1, max: 2_000_000 }, '.')).toBe(1_000_000);
  expect(readWholeNumber('', bounds, ',')).toBe('empty');
  expect(readWholeNumber('   ', bounds, ',')).toBe('empty');
  for (const typed of ['10.000', '1e4', '-2000', '+2000', ',2000', '2000,', 'ten', '0x10'])
    expect([typed, readWholeNumber(typed, bounds, ',')]).toEqual([typed, 'notNumber']);
  expect(readWholeNumber('1999', bounds, ',')).toBe('outOfRange');
  expect(readWholeNumber('80001', bounds, ',')).toBe('outOfRange');
  expect(readWholeNumber('30', { min: 7, max: 180 })).toBe(30);
  expect(readWholeNumber('3,0', { min: 7, max: 180 })).toBe('notNumber');
});
