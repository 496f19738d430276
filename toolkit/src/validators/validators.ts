// String checks the wider app carries (specification, point 5). The site
// itself checks no format: its contact form only needs fields to be filled.

// The HTML standard's rule for <input type="email">, with one change: the
// domain must have a dot, since an address at a bare host name cannot reach
// anyone outside an intranet.
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** An e-mail address as a browser's e-mail field accepts it, with a dotted domain, at most 254 characters. */
export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

/**
 * A phone number in international digits only: an optional leading `+`, then
 * 8 to 15 digits (15 is the E.164 maximum; 8 admits short national numbers).
 * No spaces, dashes or brackets: strip them before checking.
 */
export function isPhone(value: string): boolean {
  return /^\+?\d{8,15}$/.test(value);
}

// CJK Unified Ideographs: the main block, extension A, extensions B to F and
// I (plane 2) and G to H (plane 3). Compatibility ideographs, radicals, CJK
// punctuation, kana and hangul are not ideographs of this kind.
const CJK_UNIFIED = /^[\u3400-\u4DBF\u4E00-\u9FFF\u{20000}-\u{2A6DF}\u{2A700}-\u{2EE5F}\u{30000}-\u{323AF}]+$/u;

/** At least one character, and only CJK Unified Ideographs (Chinese characters). */
export function isChinese(value: string): boolean {
  return CJK_UNIFIED.test(value);
}

/**
 * An absolute http or https URL with a host, as the URL parser reads it. The
 * text must be exactly the URL: no surrounding spaces, which the parser would
 * otherwise quietly trim.
 */
export function isUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/** An optional sign, then one or more ASCII digits: `42`, `-7`, `+007`. */
export function isInteger(value: string): boolean {
  return /^[+-]?\d+$/.test(value);
}

/** An optional sign, digits, and an optional fraction with digits after the point: `3`, `-0.5`, `12.50`. */
export function isDecimal(value: string): boolean {
  return /^[+-]?\d+(\.\d+)?$/.test(value);
}
