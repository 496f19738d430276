// Which characters of someone else's text act instead of showing, and how an
// operator is shown them: one definition for the commands' terminal output
// and the console's screens. No Node: the console bundles it.

/**
 * Control characters (Cc: an escape sequence, a carriage return), format
 * characters (Cf: U+202E and the other bidi controls reorder what is shown,
 * zero-width ones hide text), line and paragraph separators, and lone
 * surrogates.
 */
export const HIDDEN_CHARACTER_CLASS = '[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}]';

const HIDDEN = new RegExp(HIDDEN_CHARACTER_CLASS, 'gu');

/** A hidden character as the operator sees it: `⟨U+202E⟩`. */
export function characterMarker(character: string): string {
  return `⟨U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** A piece of text: what it shows, or one hidden character to show as its marker. */
export type TextPiece = { text: string } | { hidden: string };

/**
 * `text` cut where each hidden character is, so a screen can show each one
 * as its marker; with `keepLineBreaks`, `\n` and `\r\n` stay in the text.
 */
export function textPieces(text: string, options: { keepLineBreaks?: boolean } = {}): TextPiece[] {
  const pieces: TextPiece[] = [];
  let start = 0;
  for (const match of text.matchAll(options.keepLineBreaks ? new RegExp(`(?!\\r\\n|\\n)${HIDDEN_CHARACTER_CLASS}`, 'gu') : HIDDEN)) {
    if (match.index > start) pieces.push({ text: text.slice(start, match.index) });
    pieces.push({ hidden: match[0] });
    start = match.index + match[0].length;
  }
  if (start < text.length) pieces.push({ text: text.slice(start) });
  return pieces;
}

/** `text` with each hidden character as its marker: for a label, a title, a sentence. */
export function shownText(text: string): string {
  return text.replace(HIDDEN, characterMarker);
}
