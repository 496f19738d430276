import { useEffect, useEffectEvent, useId, useRef, useState, type RefObject } from 'react';

export interface PopupOptions {
  /** Open on first render; closed by default. */
  defaultOpen?: boolean;
  /** A mask covers the page behind the popup while it is open; none by default. */
  mask?: boolean;
  /** With a mask, whether a press on it (outside the popup) closes the popup; true by default. */
  maskClosable?: boolean;
  /** Called with the new state whenever the popup opens or closes. */
  onOpenChange?: (open: boolean) => void;
}

export interface PopupState {
  open: boolean;
  setOpen: (open: boolean) => void;
  toggle: () => void;
  /** For the element that toggles the popup, usually a button. */
  targetRef: RefObject<HTMLButtonElement | null>;
  /** For the popup itself: a press inside it never closes it. */
  panelRef: RefObject<HTMLDivElement | null>;
  /** The popup's id, for the target's aria-controls. */
  panelId: string;
}

/**
 * The popup helper's states and transitions (specification, point 4):
 * visible or hidden, toggled by its target, closed by a press outside when
 * there is no mask or the mask is closable, and by Escape, which also gives
 * focus back to the target so a keyboard user is not left nowhere.
 */
export function usePopup(options: PopupOptions = {}): PopupState {
  const { defaultOpen = false, mask = false, maskClosable = true, onOpenChange } = options;
  const [open, setOpenState] = useState(defaultOpen);
  const targetRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();

  function setOpen(next: boolean) {
    if (next === open) return;
    setOpenState(next);
    onOpenChange?.(next);
  }

  const closeFromOutside = useEffectEvent((event: PointerEvent) => {
    const node = event.target;
    if (!(node instanceof Node)) return;
    if (panelRef.current?.contains(node) || targetRef.current?.contains(node)) return;
    if (mask && !maskClosable) return;
    setOpen(false);
  });

  const closeOnEscape = useEffectEvent((event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    setOpen(false);
    targetRef.current?.focus();
  });

  useEffect(() => {
    if (!open) return;
    // Pointer events cover mouse, pen and touch alike. Listening on the
    // document, in the capture phase, sees presses that content stops from
    // bubbling.
    const onPointerDown = (event: PointerEvent) => closeFromOutside(event);
    const onKeyDown = (event: KeyboardEvent) => closeOnEscape(event);
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  return { open, setOpen, toggle: () => setOpen(!open), targetRef, panelRef, panelId };
}
