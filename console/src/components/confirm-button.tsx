import { useId } from 'react';
import { Button, Dialog, DialogTrigger, Modal, ModalOverlay } from 'react-aria-components';
import { useConsoleText } from '../i18n/use-console-text';

export interface ConfirmButtonProps {
  label: string;
  /** What follows, in words (what visitors will get): the dialog's question. */
  question: string;
  /** What makes this one unlike the others of its kind (your own token, the owner's), said first. */
  warning?: string;
  onConfirm(): void;
  disabled?: boolean;
  danger?: boolean;
}

/**
 * A button whose action waits for a confirmation that says what follows
 * from it. The dialog is react-aria-components' modal: focus kept inside
 * and given back to the button, Escape and a click outside close it, the
 * rest of the page hidden from assistive technology meanwhile. It opens on
 * Cancel, the choice that changes nothing: an Enter pressed by habit
 * confirms nothing (issue 49: it opened on Confirm).
 */
export function ConfirmButton({ label, question, warning, onConfirm, disabled, danger }: ConfirmButtonProps) {
  const text = useConsoleText();
  const questionId = useId();
  const warningId = useId();
  return (
    <DialogTrigger>
      <Button className={danger ? 'danger' : undefined} isDisabled={disabled}>
        {label}
      </Button>
      <ModalOverlay isDismissable className="dialog-overlay">
        <Modal className="dialog">
          <Dialog aria-label={label} aria-describedby={warning ? `${warningId} ${questionId}` : questionId}>
            {({ close }) => (
              <>
                {warning && (
                  <p id={warningId} className="warning">
                    <strong>{warning}</strong>
                  </p>
                )}
                <p id={questionId}>{question}</p>
                <div className="actions">
                  <Button autoFocus onPress={close}>
                    {text.common.cancel}
                  </Button>
                  <Button
                    className={danger ? 'danger' : 'primary'}
                    onPress={() => {
                      close();
                      onConfirm();
                    }}
                  >
                    {text.common.confirm}
                  </Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
