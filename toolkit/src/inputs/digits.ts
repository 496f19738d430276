/** ASCII digits only, in order; other digit scripts are dropped like any other character. */
export function keepDigits(text: string): string {
  return text.replace(/[^0-9]/g, '');
}

/**
 * Digits in groups separated by a space. `sizes` are the group lengths in
 * order and the last one repeats: [3, 4, 4] gives "138 1234 5678", [4] gives
 * "6222 0212 3456 7890". No sizes, no grouping.
 */
export function groupDigits(digits: string, sizes: readonly number[]): string {
  const last = sizes.at(-1);
  if (last === undefined) return digits;
  const groups: string[] = [];
  for (let start = 0, index = 0; start < digits.length; index += 1) {
    const size = sizes[index] ?? last;
    groups.push(digits.slice(start, start + size));
    start += size;
  }
  return groups.join(' ');
}

/** The caret position in `formatted` just after its `count`-th digit (0 for none). */
export function caretAfterDigits(formatted: string, count: number): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < formatted.length; index += 1) {
    if (/[0-9]/.test(formatted.charAt(index))) seen += 1;
    if (seen === count) return index + 1;
  }
  return formatted.length;
}
