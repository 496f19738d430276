import { parseNumber, type NumberInput } from './parse-number';

// For fractions of a cent only; whole cents are formatted exactly below.
const TWO_DECIMALS = new Intl.NumberFormat('en-US', {
  useGrouping: false,
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
  signDisplay: 'negative',
});

/**
 * An amount in cents as currency units with two decimals, no grouping and no
 * symbol (specification, point 9): 123456 -> "1234.56", -5 -> "-0.05".
 *
 * Whole cents, as a number or as a string of digits, are divided exactly, at
 * any size: Number.MAX_SAFE_INTEGER -> "90071992547409.91". A fraction of a
 * cent is rounded half away from zero. NaN, ±Infinity and text that is not a
 * plain decimal number give '' rather than a misleading "0.00".
 */
export function formatAmount(cents: NumberInput): string {
  const value = parseNumber(cents);
  if (value === undefined) return '';
  if (typeof value === 'number') return TWO_DECIMALS.format(value / 100);
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  const fraction = (magnitude % 100n).toString().padStart(2, '0');
  return `${sign}${magnitude / 100n}.${fraction}`;
}
