import { stringify } from 'csv-stringify/sync';

/**
 * A place where a spreadsheet may start reading a cell, followed by what it
 * would read as a formula there.
 *
 * The places: the cell's start and, inside it, after a `,` or `;` (a
 * spreadsheet whose list separator is the other one splits the line there:
 * Excel in Indonesia and much of Europe uses `;`), a tab or a line break (a
 * multi-line cell read line by line).
 *
 * The formula: OWASP's list (`=`, `+`, `-`, `@`, tab, carriage return), also
 * behind spaces, which spreadsheets skip, and a `"`, which would open a
 * quoted cell in such a split. csv-stringify's own `escape_formulas` looks
 * at the cell's first character only, which is why this is ours.
 */
const FORMULA_AT_CELL_START = /(?<=^|[,;\t\r\n])(?=[ \u00a0]*["=+@\t\r-])/g;

/**
 * A cell's text that no spreadsheet runs: a `'` before a formula character
 * wherever a cell could start, so `=cmd|…` shows as text in any locale. A
 * telephone number such as `+62 21 0000` gets its `'` too: spreadsheets
 * show it as text, which is what it is, and `-1+1` in that column would be
 * a formula.
 */
function spreadsheetText(value: string): string {
  return value.replace(FORMULA_AT_CELL_START, "'");
}

/**
 * RFC 4180 CSV that opens safely in a spreadsheet: a header line of
 * `columns`, then one line per row, every cell quoted (`""` for a quote,
 * line breaks kept inside the quotes), CRLF line ends, each cell's text
 * through spreadsheetText. The one writer of every CSV the operators
 * download: the inbox's export and the audit log's.
 */
export function spreadsheetCsv<Column extends string>(columns: readonly Column[], rows: readonly Readonly<Record<Column, string>>[]): string {
  return stringify([...rows], {
    header: true,
    columns: [...columns],
    quoted: true,
    quoted_empty: true,
    record_delimiter: 'windows',
    cast: { string: spreadsheetText },
  });
}
