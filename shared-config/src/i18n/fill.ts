/** Replaces `{name}` placeholders; values are plain text, never markup. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * The two markets' own amounts, written out rather than asked of
 * `Intl.NumberFormat`: the first use of `Intl` in a page loads the
 * browser's locale data, about 30 ms of a fast laptop's main thread and
 * over 100 ms of a phone's, all in the middle of hydrating Home (a CPU
 * profile of the page load); and the server's ICU and the visitor's can
 * differ, which would break hydration. The unit test holds these to what
 * `Intl` writes.
 */
const MARKET_DIGITS: Readonly<Record<string, { separator: string; indianGroups: boolean }>> = {
  'en-IN': { separator: ',', indianGroups: true },
  id: { separator: '.', indianGroups: false },
  'id-ID': { separator: '.', indianGroups: false },
};
const MARKET_MONEY: Readonly<Record<string, { symbol: string; locale: string }>> = {
  'en-IN|INR': { symbol: '\u20b9', locale: 'en-IN' },
  'id|IDR': { symbol: 'Rp\u00a0', locale: 'id' },
  'id-ID|IDR': { symbol: 'Rp\u00a0', locale: 'id' },
};

/** `12345678` as `1,23,45,678` (Indian: thousands, then pairs) or `12.345.678`. */
function groupDigits(digits: string, separator: string, indianGroups: boolean): string {
  const last = digits.slice(-3);
  let rest = digits.slice(0, -3);
  const size = indianGroups ? 2 : 3;
  const groups = [last];
  while (rest.length > 0) {
    groups.unshift(rest.slice(-size));
    rest = rest.slice(0, -size);
  }
  return groups.join(separator);
}

/** Other locales and currencies: one formatter each, built once. */
const formats = new Map<string, Intl.NumberFormat>();

function intlFormat(key: string, locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

const wholeDigits = (value: number) => (Number.isSafeInteger(Math.round(value)) && value >= 0 ? String(Math.round(value)) : undefined);

/** A whole number grouped as the locale groups it (`1,000` in en-IN, `1.000` in id), without Intl for the two markets. */
export function formatWholeNumber(value: number, locale: string): string {
  const market = MARKET_DIGITS[locale];
  const digits = wholeDigits(value);
  if (market && digits !== undefined) return groupDigits(digits, market.separator, market.indianGroups);
  return intlFormat(locale, locale, { maximumFractionDigits: 0 }).format(value);
}

/**
 * Whole currency units, grouped the way the pack's locale groups them:
 * `₹80,000` in en-IN, `Rp 15.000.000` in id (with a no-break space).
 */
export function formatMoney(amount: number, locale: string, currency: string): string {
  const key = `${locale}|${currency}`;
  const market = MARKET_MONEY[key];
  if (market && wholeDigits(amount) !== undefined) return `${market.symbol}${formatWholeNumber(amount, market.locale)}`;
  // Both bounds: rupiah has two minor digits by default, and some engines
  // reject a maximum below the default minimum.
  return intlFormat(key, locale, { style: 'currency', currency, minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(amount);
}
