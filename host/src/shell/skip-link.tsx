import { useText } from '@portico/shared-config';

/**
 * The page's first focusable element, hidden until focused: one key press
 * past the brand, the tabs and the language links. The page script points
 * it at the section shown and moves the focus there itself (the hash holds
 * the active tab, so following the href would change it).
 */
export function SkipLink() {
  const text = useText();
  return (
    <a className="skip-link" href="#home">
      {text.skipLink}
    </a>
  );
}
