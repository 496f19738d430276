/** Replaces `{name}` placeholders; values are plain text, never markup. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * One formatter per locale and currency: building an `Intl.NumberFormat`
 * loads the locale's data, and was the largest single cost of hydrating
 * Home, which formats several amounts (a CPU profile of the page load).
 */
const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * Whole currency units, grouped the way the pack's locale groups them:
 * `₹80,000` in en-IN, `Rp 15.000.000` in id (with a no-break space).
 */
export function formatMoney(amount: number, locale: string, currency: string): string {
  const key = `${locale}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    // Both bounds: rupiah has two minor digits by default, and some engines
    // reject a maximum below the default minimum.
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 0, maximumFractionDigits: 0 });
    moneyFormats.set(key, format);
  }
  return format.format(amount);
}
