import type { StoredMessage } from '../store/message-store';

const COLUMNS = ['id', 'receivedAt', 'language', 'name', 'telephone', 'message', 'delivery', 'attempts', 'deliveredAt', 'lastError'] as const;

function row(message: StoredMessage): Record<(typeof COLUMNS)[number], string> {
  return {
    id: message.id,
    receivedAt: message.receivedAt.toISOString(),
    language: message.language,
    name: message.name,
    telephone: message.telephone,
    message: message.message,
    delivery: message.delivery.status,
    attempts: String(message.delivery.attempts),
    deliveredAt: message.delivery.deliveredAt?.toISOString() ?? '',
    lastError: message.delivery.lastError ?? '',
  };
}

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
 * quoted cell in such a split.
 */
const FORMULA_AT_CELL_START = /(?<=^|[,;\t\r\n])(?=[ \u00a0]*["=+@\t\r-])/g;

/**
 * One CSV cell that no spreadsheet runs: a `'` before a formula character
 * wherever a cell could start (so `=cmd|…` shows as text, in any locale),
 * then quoted, as every cell is (RFC 4180, `""` for a quote). A telephone
 * number such as `+62 21 0000` gets its `'` too: spreadsheets show it as
 * text, which is what it is, and `-1+1` in that column would be a formula.
 */
export function csvCell(value: string): string {
  return `"${value.replace(FORMULA_AT_CELL_START, "'").replace(/"/g, '""')}"`;
}

/** RFC 4180 CSV with a header line, every cell quoted, CRLF line ends. */
export function toCsv(messages: readonly StoredMessage[]): string {
  const lines = [COLUMNS.map(csvCell).join(','), ...messages.map((message) => COLUMNS.map((column) => csvCell(row(message)[column])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

export function toJson(messages: readonly StoredMessage[]): string {
  return `${JSON.stringify(messages.map(row), null, 2)}\n`;
}

/**
 * Text for the lender's terminal: control characters a visitor typed (an
 * escape sequence could rewrite the screen or the title) are shown as �.
 */
function printable(text: string, keepNewlines = false): string {
  return text.replace(keepNewlines ? /(?!\n)\p{Cc}/gu : /\p{Cc}/gu, '\ufffd');
}

/** One message for `show`: its fields, then its text as typed. */
export function describeMessage(message: StoredMessage): string {
  const fields = row(message);
  const head = COLUMNS.filter((column) => column !== 'message').map((column) => `${column.padEnd(12)}${printable(fields[column])}`);
  return `${head.join('\n')}\n\n${printable(message.message, true)}\n`;
}

/** One line per message for `list`. */
export function listLine(message: StoredMessage): string {
  const preview = message.message.replace(/\s+/g, ' ').slice(0, 50);
  return [message.id, message.receivedAt.toISOString(), message.delivery.status.padEnd(9), printable(message.name.slice(0, 30)), printable(preview)].join('  ');
}
