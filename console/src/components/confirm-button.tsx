import { useId, useState } from 'react';
import { useConsoleText } from '../i18n/use-console-text';

export interface ConfirmButtonProps {
  label: string;
  /** What follows, in words (what visitors will get): the dialog's question. */
  question: string;
  onConfirm(): void;
  disabled?: boolean;
  danger?: boolean;
}

/** A button whose action waits for a confirmation that says what follows from it. */
export function ConfirmButton({ label, question, onConfirm, disabled, danger }: ConfirmButtonProps) {
  const text = useConsoleText();
  const [open, setOpen] = useState(false);
  const questionId = useId();
  return (
    <>
      <button type="button" className={danger ? 'danger' : undefined} disabled={disabled} aria-expanded={open} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && (
        <dialog open aria-label={label} aria-describedby={questionId}>
          <p id={questionId}>{question}</p>
          <div className="actions">
            <button type="button" onClick={() => setOpen(false)}>
              {text.common.cancel}
            </button>
            <button
              type="button"
              className={danger ? 'danger' : 'primary'}
              // The dialog opens on a click: its answer is where the keyboard goes next.
              autoFocus
              onClick={() => {
                setOpen(false);
                onConfirm();
              }}
            >
              {text.common.confirm}
            </button>
          </div>
        </dialog>
      )}
    </>
  );
}
