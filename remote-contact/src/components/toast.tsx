import { useEffect, useRef } from 'react';
import { scrollGently } from './scroll-gently';
import type { ToastMessage } from './use-toast';

export interface ToastProps {
  toast: ToastMessage | null;
}

/**
 * Announced without taking focus: `status` for success, `alert` for failure.
 * In the section's flow below the form, in room kept for it, never a box
 * over the page: a fixed toast covered the Message field's error, the send
 * button and Try again (issue 49). A new toast is scrolled into view, so it
 * is seen as well as heard.
 */
export function Toast({ toast }: ToastProps) {
  const box = useRef<HTMLDivElement>(null);
  const shown = toast?.id;
  useEffect(() => {
    if (shown !== undefined) scrollGently(box.current);
  }, [shown]);
  return (
    <div className="toast-anchor">
      {toast && (
        <div ref={box} key={toast.id} role={toast.kind === 'success' ? 'status' : 'alert'} className={`toast toast--${toast.kind}`}>
          {toast.text}
        </div>
      )}
    </div>
  );
}
