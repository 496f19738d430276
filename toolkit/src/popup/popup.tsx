import { useId, type ReactNode } from 'react';
import { usePopup, type PopupOptions } from './use-popup';
import './popup.css';

export interface PopupProps extends PopupOptions {
  /** What the toggling button shows; also the popup's accessible name. */
  label: ReactNode;
  children: ReactNode;
  className?: string;
}

/**
 * A button and the popup it toggles. The popup stays in the document while
 * hidden, so the button's aria-controls always points at something.
 */
export function Popup({ label, children, className, ...options }: PopupProps) {
  const { open, toggle, targetRef, panelRef, panelId } = usePopup(options);
  const labelId = useId();
  return (
    <div className={className ? `portico-popup ${className}` : 'portico-popup'}>
      <button type="button" id={labelId} ref={targetRef} aria-expanded={open} aria-controls={panelId} onClick={toggle}>
        {label}
      </button>
      {open && options.mask ? <div className="portico-popup__mask" aria-hidden="true" /> : null}
      <div ref={panelRef} id={panelId} role="dialog" aria-labelledby={labelId} hidden={!open} className="portico-popup__panel">
        {children}
      </div>
    </div>
  );
}
