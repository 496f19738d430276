import { parseNumber, type NumberInput } from './parse-number';

// de-DE groups every three digits with a dot, from the first thousand on, as
// the specification asks (point 9) and as Indonesian readers expect.
const DOT_GROUPS = new Intl.NumberFormat('de-DE', {
  useGrouping: true,
  maximumFractionDigits: 0,
  signDisplay: 'negative',
});

/**
 * A whole number with its thousands grouped by dots: 1234567 -> "1.234.567".
 * A fraction is rounded half away from zero (1234.5 -> "1.235"); digit
 * strings keep every digit at any size. NaN, ±Infinity and text that is not a
 * plain decimal number give ''.
 */
export function groupThousands(value: NumberInput): string {
  const parsed = parseNumber(value);
  return parsed === undefined ? '' : DOT_GROUPS.format(parsed);
}
