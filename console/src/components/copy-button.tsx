import { useState } from 'react';
import { fill } from '@portico/shared-config';
import { useConsoleText } from '../i18n/use-console-text';

export interface CopyButtonProps {
  value: string;
  /** What is copied, as the middle of a sentence, for the button's name: "Copy the new token". */
  what: string;
}

/** Copies a value (a preview link, a new token) to the clipboard and says so. */
export function CopyButton({ value, what }: CopyButtonProps) {
  const text = useConsoleText();
  const [copied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(() => setCopied(true));
        }}
      >
        {fill(text.common.copy, { what })}
      </button>
      <span role="status">{copied ? text.common.copied : ''}</span>
    </>
  );
}
