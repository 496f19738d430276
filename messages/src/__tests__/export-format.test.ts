import { toCsv } from '../cli/export-format';
import type { StoredMessage } from '../store/message-store';

interface Cell {
  value: string;
  quoted: boolean;
}

/**
 * Reads CSV as a spreadsheet's import does, with the list separator of the
 * visitor's locale: the state machine of Python's csv reader (non-strict),
 * which is also how Excel and LibreOffice treat what follows a closing
 * quote (kept as text, up to the next separator) and a quote inside an
 * unquoted cell (a character like any other).
 */
function readCsv(text: string, separator: ',' | ';'): Cell[][] {
  const records: Cell[][] = [];
  let record: Cell[] = [];
  let value = '';
  let quoted = false;
  let state: 'record' | 'field' | 'unquoted' | 'quoted' | 'quote-in-quoted' = 'record';
  const endField = () => {
    record.push({ value, quoted });
    value = '';
    quoted = false;
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
    state = 'record';
  };
  for (const character of text) {
    const newline = character === '\r' || character === '\n';
    // A line break between records (the LF of a CRLF) starts nothing.
    if (state === 'record') {
      if (newline) continue;
      state = 'field';
    }
    switch (state) {
      case 'field':
        if (newline) endRecord();
        else if (character === '"') {
          quoted = true;
          state = 'quoted';
        } else if (character === separator) endField();
        else {
          value += character;
          state = 'unquoted';
        }
        break;
      case 'unquoted':
        if (newline) endRecord();
        else if (character === separator) {
          endField();
          state = 'field';
        } else value += character;
        break;
      case 'quoted':
        if (character === '"') state = 'quote-in-quoted';
        else value += character;
        break;
      case 'quote-in-quoted':
        if (character === '"') {
          value += '"';
          state = 'quoted';
        } else if (character === separator) {
          endField();
          state = 'field';
        } else if (newline) endRecord();
        else {
          value += character;
          state = 'unquoted';
        }
        break;
    }
  }
  if (state !== 'record') endRecord();
  return records;
}

/** What a spreadsheet would run: OWASP's characters, after the spaces it skips. */
const runsAsFormula = (text: string) => /^[ \u00a0]*[=+\-@\t\r]/.test(text);

/** Each cell, and each line of each cell (a multi-line cell may be read line by line). */
const readings = (records: Cell[][]) => records.flat().flatMap(({ value }) => [value, ...value.split(/\r\n|\r|\n/)]);

const HOSTILE = [
  // The review's finding: cells of their own under `;`.
  "Halo;=cmd|' /C calc'!A0;=1+1",
  // OWASP's two examples.
  '=1+2";=1+2',
  '=1+2\'" ;,=1+2',
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  '+1-1',
  '\t=1+1',
  '\r=1+1',
  ' =1+1',
  '\u00a0=1+1',
  'line one\n=1+1',
  'line one\r\n-1+1\r\n  @A1',
  'x;"=1+1"',
  'x,"=1+1"',
  'x; "=1+1",  =2',
  'tab\t=1',
];

function message(index: number, fields: Partial<StoredMessage>): StoredMessage {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    receivedAt: new Date('2026-05-01T10:00:00.000Z'),
    name: 'Asha Rao',
    telephone: '+91 98765 43210',
    message: 'Please call me about a loan.',
    language: 'en',
    idempotencyKey: `export-${index}`,
    delivery: { status: 'failed', attempts: 3, lastError: 'the webhook answered 500', deliveredAt: null },
    ...fields,
  };
}

const messages = [
  message(0, {}),
  ...HOSTILE.map((text, index) => message(index + 1, { name: text, telephone: text, message: text })),
  message(99, { name: 'Dewi "Ayu"', message: 'Kalimat, dengan koma; dan titik koma.\nBaris kedua.' }),
];
const csv = toCsv(messages);

describe('the CSV export opens safely in a spreadsheet', () => {
  test.each([',', ';'] as const)('read with "%s" as the list separator, no cell and no line of a cell starts a formula', (separator) => {
    const records = readCsv(csv, separator);
    // Under ";" the cells that hold line breaks fall apart into more lines: the point is what each piece starts with.
    expect(records.length).toBeGreaterThanOrEqual(messages.length + 1);
    expect(readings(records).filter(runsAsFormula)).toEqual([]);
  });

  test('read with ",", every cell is quoted and reads back as the visitor wrote it, a \' before each formula character', () => {
    const records = readCsv(csv, ',');
    expect(records.every((record) => record.length === 10 && record.every((cell) => cell.quoted))).toBe(true);
    expect(records[0]!.map((cell) => cell.value)).toEqual([
      'id',
      'receivedAt',
      'language',
      'name',
      'telephone',
      'message',
      'delivery',
      'attempts',
      'deliveredAt',
      'lastError',
    ]);
    const byKey = (index: number) => records[index + 1]!.map((cell) => cell.value);
    expect(byKey(0)).toEqual([
      '00000000-0000-4000-8000-000000000000',
      '2026-05-01T10:00:00.000Z',
      'en',
      'Asha Rao',
      "'+91 98765 43210",
      'Please call me about a loan.',
      'failed',
      '3',
      '',
      'the webhook answered 500',
    ]);
    expect(byKey(1)[5]).toBe("Halo;'=cmd|' /C calc'!A0;'=1+1");
    expect(byKey(2)[5]).toBe("'=1+2\";'=1+2");
    expect(byKey(11)[5]).toBe("line one\n'=1+1");
    expect(byKey(messages.length - 1).slice(3, 6)).toEqual(['Dewi "Ayu"', "'+91 98765 43210", 'Kalimat, dengan koma; dan titik koma.\nBaris kedua.']);
    // Taking the added ' away gives back exactly what was stored.
    for (const [index, text] of HOSTILE.entries()) {
      const cell = byKey(index + 1)[5]!;
      expect(cell.replace(/(?<=^|[,;\t\r\n])'/g, '')).toBe(text);
    }
  });
});
