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
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR
 * first) gets a leading `'`, unless it is a plain telephone number such as
 * `+62 21 0000`: a visitor's text must not become code in the lender's
 * spreadsheet.
 */
function safeCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) && !/^\+?[\d\s().-]+$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) || guarded !== value ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** RFC 4180 CSV with a header line, CRLF line ends. */
export function toCsv(messages: readonly StoredMessage[]): string {
  const lines = [COLUMNS.join(','), ...messages.map((message) => COLUMNS.map((column) => safeCell(row(message)[column])).join(','))];
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
