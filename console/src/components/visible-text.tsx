import type { ReactNode } from 'react';
import { characterMarker, textPieces } from '@portico/platform/hidden-characters';

export interface VisibleTextProps {
  /** Someone else's text: a visitor's name or message. */
  text: string;
  /** At most this many characters shown (a marker counting as its own length), then `…`; none: all of it. */
  limit?: number;
  /** `\n` and `\r\n` stay line breaks (a message's lines); otherwise they are shown as markers too. */
  keepLineBreaks?: boolean;
}

/**
 * Text from outside shown as it is, not as it would like to look: isolated
 * (`<bdi>`), so a right-to-left override cannot reorder the words around it,
 * and every control or format character shown as a marker (`⟨U+202E⟩`), so
 * the operator sees what is there, bidi controls and zero-width characters
 * included. With `limit`, a long text is cut short where it is shown; the
 * caller offers the whole text elsewhere (the opened message).
 */
export function VisibleText({ text, limit, keepLineBreaks }: VisibleTextProps) {
  const shown: ReactNode[] = [];
  let room = limit ?? Number.POSITIVE_INFINITY;
  let cut = false;
  for (const piece of textPieces(text, { keepLineBreaks })) {
    if ('hidden' in piece) {
      const marker = characterMarker(piece.hidden);
      if (marker.length > room) {
        cut = true;
        break;
      }
      room -= marker.length;
      shown.push(
        <span key={shown.length} className="hidden-character">
          {marker}
        </span>,
      );
      continue;
    }
    // By code point, so a cut never splits a surrogate pair.
    const characters = [...piece.text];
    if (characters.length > room) {
      shown.push(characters.slice(0, room).join(''));
      cut = true;
      break;
    }
    room -= characters.length;
    shown.push(piece.text);
  }
  return (
    <bdi className="visible-text">
      {shown}
      {cut && '…'}
    </bdi>
  );
}
