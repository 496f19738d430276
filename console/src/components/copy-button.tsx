import { useState } from 'react';
import { useConsoleText } from '../i18n/use-console-text';

export interface CopyButtonProps {
  value: string;
  /** What is copied, for the button's name: "Copy Preview link". */
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
        {`${text.common.copy} ${what}`}
      </button>
      <span role="status">{copied ? text.common.copied : ''}</span>
    </>
  );
}
