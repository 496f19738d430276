/** Replaces `{name}` placeholders; values are plain text, never markup. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * Whole currency units, grouped the way the pack's locale groups them:
 * `₹80,000` in en-IN, `Rp 15.000.000` in id (with a no-break space).
 */
export function formatMoney(amount: number, locale: string, currency: string): string {
  // Both bounds: rupiah has two minor digits by default, and some engines
  // reject a maximum below the default minimum.
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  }).format(amount);
}
