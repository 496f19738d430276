import type { StoredMessage } from '../store/message-store';
import { terminalSafeJson, terminalText } from '@portico/platform/command-line';

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

/** The text exactly as typed: a character a terminal would act on is a `\uXXXX` escape, which any JSON reader reads back. */
export function toJson(messages: readonly StoredMessage[]): string {
  return `${terminalSafeJson(JSON.stringify(messages.map(row), null, 2))}\n`;
}

/** One message for `show`: its fields, then its text with its line breaks, every control or format character a visitor typed escaped. */
export function describeMessage(message: StoredMessage): string {
  const fields = row(message);
  const head = COLUMNS.filter((column) => column !== 'message').map((column) => `${column.padEnd(12)}${terminalText(fields[column])}`);
  return `${head.join('\n')}\n\n${terminalText(message.message, { keepLineBreaks: true })}\n`;
}

/** One line per message for `list`. */
export function listLine(message: StoredMessage): string {
  const preview = message.message.replace(/\s+/g, ' ').slice(0, 50);
  return [message.id, message.receivedAt.toISOString(), message.delivery.status.padEnd(9), terminalText(message.name.slice(0, 30)), terminalText(preview)].join(
    '  ',
  );
}
