import { terminalSafeJson, terminalText } from '../command-line/terminal-text';

const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

describe('text for the terminal', () => {
  it('shows every control and format character as its escape, and leaves the rest as it is', () => {
    expect(terminalText('Dewi \u001b]0;pwned\u0007')).toBe('Dewi \\x1b]0;pwned\\x07');
    expect(terminalText('invoice\u202Efdp.exe')).toBe('invoice\\u202efdp.exe');
    expect(terminalText('a\u2066b\u2069c\u200Dd\u00ADe\u009Bf\u007Fg')).toBe('a\\u2066b\\u2069c\\u200dd\\xade\\x9bf\\x7fg');
    expect(terminalText('tag\u{E0001}x\u2028y\ud800z')).toBe('tag\\u{e0001}x\\u2028y\\ud800z');
    expect(terminalText('one\rtwo\tthree\nfour\r\nfive')).toBe('one\\rtwo\\tthree\\nfour\\r\\nfive');
    expect(terminalText('Asha Rao, ₹ 5,000 — नमस्ते, C:\\loans')).toBe('Asha Rao, ₹ 5,000 — नमस्ते, C:\\loans');
    expect(terminalText(null)).toBe('');
  });

  it('keeps line breaks when asked, never a lone carriage return', () => {
    expect(terminalText('line one\nline two\r\nthree\rover', { keepLineBreaks: true })).toBe('line one\nline two\r\nthree\\rover');
  });

  it('changes nothing the second time, so output may pass through it again on its way out', () => {
    const once = terminalText('x\u001b[2J\u202e\r\n\u{E0001}\\u202e');
    expect(terminalText(once)).toBe(once);
    expect(once).not.toMatch(UNSAFE);
  });

  it('writes JSON whose strings hold no such character, read back as the exact text', () => {
    const value = [{ name: 'Dewi\u202E\u009B\u007F\u2028\u200D', message: 'a\nb\u001b', tag: '\u{E0001}' }];
    const json = terminalSafeJson(JSON.stringify(value, null, 2));
    expect(json.replace(/\n/g, '')).not.toMatch(UNSAFE);
    expect(JSON.parse(json)).toEqual(value);
  });
});
