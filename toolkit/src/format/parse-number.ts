/** A number as the helpers accept it: a number, or its plain decimal spelling. */
export type NumberInput = number | string;

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/**
 * Reads a NumberInput exactly where that is possible: whole numbers become a
 * bigint, so 12345678901234567890 keeps every digit. Anything that is not a
 * finite plain decimal (NaN, ±Infinity, '', '1e3', '0x10', '12abc') gives
 * undefined, because Number('') === 0 would otherwise print a zero for a
 * missing value.
 */
export function parseNumber(input: NumberInput): bigint | number | undefined {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return undefined;
    return Number.isInteger(input) ? BigInt(input) : input;
  }
  const text = input.trim();
  if (INTEGER.test(text)) return BigInt(text);
  if (DECIMAL.test(text)) return Number(text);
  return undefined;
}
