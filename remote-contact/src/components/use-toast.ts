import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a toast stays on screen (specification, point 9). */
const TOAST_DURATION_MS = 1000;

export type ToastKind = 'success' | 'failure';

export interface ToastMessage {
  kind: ToastKind;
  text: string;
  /** Changes on every show, so a repeated text is announced again. */
  id: number;
}

/**
 * One toast at a time: showing another replaces it and restarts its clock,
 * so repeated clicks never stack toasts.
 */
export function useToast(durationMs = TOAST_DURATION_MS) {
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const nextId = useRef(0);

  const show = useCallback(
    (kind: ToastKind, text: string) => {
      clearTimeout(timer.current);
      nextId.current += 1;
      setToast({ kind, text, id: nextId.current });
      timer.current = setTimeout(() => setToast(null), durationMs);
    },
    [durationMs],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  return { toast, show };
}
