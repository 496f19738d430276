import { parse } from 'csv-parse/sync';
import { spreadsheetCsv } from '../csv';

// The one CSV writer of the operators' downloads, read back by a CSV parser
// as RFC 4180 says (strict quoting, CRLF), hostile cells and all.

const COLUMNS = ['name', 'note'] as const;

/** What a spreadsheet runs: OWASP's characters at a cell's start, after the spaces it skips. */
const runsAsFormula = (cell: string) => /^[ \u00a0]*[=+\-@\t\r]/.test(cell);

const LEADING = {
  equals: "=cmd|' /C calc'!A0",
  plus: '+1+1',
  minus: "-2+3+cmd|' /C calc'!A0",
  at: "@SUM(1+1)*cmd|' /C calc'!A0",
  tab: '\t=1+1',
  'carriage return': '\r=1+1',
  'spaces then equals': '   =1+1',
};

const PLAIN = {
  quotes: 'Dewi "Ayu" Lestari',
  commas: 'Rao, Asha, Mrs',
  semicolons: 'satu; dua',
  'CRLF line breaks': 'line one\r\nline two',
  'LF line breaks': 'line one\nline two',
  'a quote and a comma closing the cell': 'tail ",',
  empty: '',
};

/** A cell as stored: the ' the writer adds where a cell could start taken away. */
const withoutAddedQuotes = (cell: string) => cell.replace(/(?<=^|[,;\t\r\n])'/g, '');

const parsed = (csv: string) => parse(csv, { record_delimiter: '\r\n', relax_quotes: false, relax_column_count: false }) as string[][];

describe('spreadsheetCsv', () => {
  it('writes RFC 4180: a header line, every cell quoted, CRLF line ends', () => {
    const csv = spreadsheetCsv(COLUMNS, [{ name: 'Asha', note: '' }]);
    expect(csv).toBe('"name","note"\r\n"Asha",""\r\n');
  });

  test.each(Object.entries(LEADING))("a cell starting with %s reads back as text, a ' before it", (_, hostile) => {
    const [header, row] = parsed(spreadsheetCsv(COLUMNS, [{ name: hostile, note: `x\n${hostile}` }]));
    expect(header).toEqual(['name', 'note']);
    expect(row![0]!.startsWith("'")).toBe(true);
    // A cell's later line, which a spreadsheet may read as a cell of its own, gets its ' too.
    expect(row![1]!.startsWith("x\n'")).toBe(true);
    for (const cell of row!) {
      expect(cell.split(/[\t\r\n;,]/).filter(runsAsFormula)).toEqual([]);
      expect(withoutAddedQuotes(cell)).toBe(cell === row![0] ? hostile : `x\n${hostile}`);
    }
  });

  test.each(Object.entries(PLAIN))('a cell with %s reads back exactly', (_, text) => {
    const rows = parsed(spreadsheetCsv(COLUMNS, [{ name: text, note: 'after' }]));
    expect(rows).toEqual([
      ['name', 'note'],
      [text, 'after'],
    ]);
  });

  it("puts a ' where a spreadsheet splitting on ; or , would start a formula, and nowhere else", () => {
    const [, row] = parsed(spreadsheetCsv(COLUMNS, [{ name: "Halo;=cmd|' /C calc'!A0,+1", note: 'x; "=1+1"' }]));
    expect(row).toEqual(["Halo;'=cmd|' /C calc'!A0,'+1", 'x;\' "=1+1"']);
  });
});
