// WCAG 2.2's colour arithmetic, for checking an operator's theme before the
// page uses it (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio).

/** A colour written `#rrggbb`, the only form config.json accepts. */
export const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** The minimum contrast of normal-size text (WCAG 2.2 success criterion 1.4.3, level AA). */
export const MIN_TEXT_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] {
  if (!HEX_COLOR.test(hex)) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16)) as [number, number, number];
}

/** Relative luminance: 0 for black, 1 for white. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) => {
    const srgb = value / 255;
    return srgb <= 0.04045 ? srgb / 12.92 : ((srgb + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of two colours, from 1 (the same) to 21 (black on white); the order does not matter. */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** `amount` (0 to 1) of `other` mixed into `base`, channel by channel in sRGB, as `#rrggbb`. */
export function mixColors(base: string, other: string, amount: number): string {
  const from = channels(base);
  const to = channels(other);
  return `#${from
    .map((value, index) =>
      Math.round(value + (to[index]! - value) * amount)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
