import { useText } from '@portico/shared-config';
import type { MouseEvent } from 'react';

export interface SkipLinkProps {
  /** The id of the element that receives the focus: the tabpanel shown. */
  target: string;
}

/**
 * The page's first focusable element, hidden until focused: one key press
 * past the brand, the tabs and the language links. The hash holds the active
 * tab, so the link moves the focus itself instead of following its href.
 */
export function SkipLink({ target }: SkipLinkProps) {
  const text = useText();
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const element = document.getElementById(target);
    if (!element) return;
    event.preventDefault();
    element.focus({ preventScroll: true });
    // base.css's scroll-padding-top keeps the panel's top, and its focus ring, below the sticky header.
    element.scrollIntoView({ block: 'start' });
  };
  return (
    <a className="skip-link" href={`#${target}`} onClick={skip}>
      {text.skipLink}
    </a>
  );
}
