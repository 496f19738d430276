import type { StoredMessage } from '../store/message-store';
import { terminalSafeJson, terminalText } from '@portico/platform/command-line';
import { spreadsheetCsv } from '@portico/platform/csv';

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

/** RFC 4180 CSV, every cell neutralised for spreadsheets (spreadsheetCsv): what the control API's `export=csv` answers and `npm run messages -- export` writes. */
export function toCsv(messages: readonly StoredMessage[]): string {
  return spreadsheetCsv(COLUMNS, messages.map(row));
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
