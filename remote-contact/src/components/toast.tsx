import type { ToastMessage } from './use-toast';

export interface ToastProps {
  toast: ToastMessage | null;
}

/** Announced without taking focus: `status` for success, `alert` for failure. */
export function Toast({ toast }: ToastProps) {
  return (
    <div className="toast-anchor">
      {toast && (
        <div key={toast.id} role={toast.kind === 'success' ? 'status' : 'alert'} className={`toast toast--${toast.kind}`}>
          {toast.text}
        </div>
      )}
    </div>
  );
}
