import { useLayoutEffect, useRef, useState, type ChangeEvent, type RefObject } from 'react';
import { caretAfterDigits, groupDigits, keepDigits } from './digits';

export interface DigitsInputOptions {
  /** The most digits the field holds; extra typed or pasted digits are refused. No limit by default. */
  maxDigits?: number;
  /** Group sizes for display, the last repeating (see groupDigits); none by default. */
  groups?: readonly number[];
  /** Initial text; its non-digits are dropped. */
  defaultValue?: string;
  /** Called with the bare digits whenever they change. */
  onValueChange?: (digits: string) => void;
}

export interface DigitsInput {
  /** The bare digits, e.g. "13812345678". */
  digits: string;
  /** What the field shows, e.g. "138 1234 5678". */
  value: string;
  /** Give it to the <input>: the caret is restored through it. */
  inputRef: RefObject<HTMLInputElement | null>;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

const NO_GROUPS: readonly number[] = [];

interface State {
  digits: string;
  /** Where the caret goes after this change, in the displayed text. */
  caret: number | null;
}

function capped(text: string, maxDigits: number | undefined): string {
  return maxDigits === undefined ? text : text.slice(0, maxDigits);
}

/**
 * A text field that holds digits only, shown in groups. The caret is placed
 * by counting digits: if three digits stood before it in what the visitor
 * typed, it goes after the third digit of what the field shows, wherever the
 * separators fall.
 */
export function useDigitsInput(options: DigitsInputOptions = {}): DigitsInput {
  const { maxDigits, groups = NO_GROUPS, defaultValue = '', onValueChange } = options;
  const inputRef = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<State>(() => ({
    digits: capped(keepDigits(defaultValue), maxDigits),
    caret: null,
  }));
  const value = groupDigits(state.digits, groups);

  // After React writes the new value the browser has put the caret at the end.
  // A new state object is set on every change, so this runs even when the
  // digits did not change and React only restored the old text.
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (state.caret === null || !input || input.ownerDocument.activeElement !== input) return;
    input.setSelectionRange(state.caret, state.caret);
  }, [state]);

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const typed = event.target.value;
    let before = keepDigits(typed.slice(0, event.target.selectionStart ?? typed.length)).length;
    let digits = keepDigits(typed);

    if (digits === state.digits && typed.length < value.length) {
      // Only a separator was deleted, which regrouping would put straight
      // back: delete the digit beyond it, as the visitor meant.
      const inputType = (event.nativeEvent as Partial<InputEvent>).inputType;
      if (inputType === 'deleteContentBackward' && before > 0) {
        digits = digits.slice(0, before - 1) + digits.slice(before);
        before -= 1;
      } else if (inputType === 'deleteContentForward') {
        digits = digits.slice(0, before) + digits.slice(before + 1);
      }
    }

    if (maxDigits !== undefined && digits.length > maxDigits) {
      // Refuse the newest digits, those just before the caret, as a maxlength
      // would, rather than silently pushing digits off the end.
      const excess = digits.length - maxDigits;
      const cut = Math.max(0, before - excess);
      digits = capped(digits.slice(0, cut) + digits.slice(before), maxDigits);
      before = cut;
    }

    setState({ digits, caret: caretAfterDigits(groupDigits(digits, groups), before) });
    if (digits !== state.digits) onValueChange?.(digits);
  }

  return { digits: state.digits, value, inputRef, onChange };
}
