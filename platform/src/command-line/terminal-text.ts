import { HIDDEN_CHARACTER_CLASS } from '../hidden-characters';

/**
 * What a terminal must not be handed raw (HIDDEN_CHARACTER_CLASS): an escape
 * sequence can rewrite the screen, the title or the clipboard, a carriage
 * return overwrites the line, U+202E and the other bidi controls reorder
 * what is shown, zero-width characters hide text.
 */
const UNSAFE = new RegExp(`\\r\\n|${HIDDEN_CHARACTER_CLASS}`, 'gu');

const hex = (code: number, width: number) => code.toString(16).padStart(width, '0');

/** One character as its escape: `\n`, `\t`, `\x1b`, `\u202e`, `\u{e0001}`. */
function escaped(character: string): string {
  if (character === '\n') return '\\n';
  if (character === '\r') return '\\r';
  if (character === '\t') return '\\t';
  const code = character.codePointAt(0)!;
  if (code < 0x100) return `\\x${hex(code, 2)}`;
  if (code <= 0xffff) return `\\u${hex(code, 4)}`;
  return `\\u{${hex(code, 5)}}`;
}

/**
 * Text for the operator's terminal, from anyone: a visitor's message, a
 * build id or note a publisher chose, a server's error. Every control and
 * format character is shown as its escape (`\x1b`, `\u202e`), so what the
 * terminal shows is what the text holds; with `keepLineBreaks`, `\n` and
 * `\r\n` stay line breaks (a message's lines, a command's own output).
 * Backslashes are left alone: the result is for reading, and escaping it
 * again changes nothing, so every output can pass through it once more on
 * its way out.
 */
export function terminalText(text: string | null | undefined, options: { keepLineBreaks?: boolean } = {}): string {
  return (text ?? '').replace(UNSAFE, (character) =>
    options.keepLineBreaks && (character === '\n' || character === '\r\n') ? character : [...character].map(escaped).join(''),
  );
}

/**
 * JSON.stringify's output with no character a terminal acts on inside its
 * strings (it leaves DEL, C1 controls, format characters and U+2028 raw):
 * each written as `\uXXXX`, which every JSON reader turns back into the
 * character, so an export still holds the text exactly as typed. Its own
 * line breaks, between values, stay.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(new RegExp(`(?!\\n)${HIDDEN_CHARACTER_CLASS}`, 'gu'), (character) =>
    Array.from({ length: character.length }, (_, index) => `\\u${hex(character.charCodeAt(index), 4)}`).join(''),
  );
}
