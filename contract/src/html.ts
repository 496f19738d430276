/**
 * Writing text into HTML the server sends: one escape for text and
 * attribute values, one for JSON inside a `<script>` element. Every part
 * that writes a page (the shell worker's head, the front server's hydration
 * data) uses these, so no two can escape differently.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value (double- or single-quoted) as HTML. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

const UNSAFE_IN_SCRIPT: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON safe inside a `<script>` element (`application/json`, `ld+json`):
 * `<` cannot start `</script>` or `<!--`, and the line separators some
 * parsers treat as line ends are escaped too, so the text is also valid
 * JavaScript. JSON.parse reads the escapes back to the same characters.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => UNSAFE_IN_SCRIPT[character]!);
}
