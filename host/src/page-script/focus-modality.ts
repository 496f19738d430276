/** The attribute on `<html>` that says how the focus last moved: app.css draws the panel's focus bar only for `keyboard`. */
export const FOCUS_INPUT_ATTRIBUTE = 'data-focus-input';

type FocusInput = 'keyboard' | 'pointer' | 'none';

/**
 * Keeps `<html data-focus-input>` on how the visitor last moved the focus.
 * Chromium matches `:focus-visible` on an element that script or the browser
 * focused when nothing said the mouse did it: a panel the browser focuses
 * as the anchor of a `#contact` link or of a language switch's page, so a
 * mouse or touch visitor got the panel's 4 px bar (issue 49). The page
 * starts at `none` (no ring for a focus nobody moved); a key press makes it
 * `keyboard`, a pointer `pointer`. Without script the attribute is absent
 * and the browser's own `:focus-visible` decides, as before.
 * Returns the clean-up.
 */
export function trackFocusInput(doc: Document): () => void {
  const root = doc.documentElement;
  const set = (input: FocusInput) => root.setAttribute(FOCUS_INPUT_ATTRIBUTE, input);
  const onKey = (event: KeyboardEvent) => {
    // A modifier alone (Ctrl to zoom, Shift to select) moves no focus; Shift+Tab does, as its Tab.
    if (!['Control', 'Meta', 'Alt', 'Shift'].includes(event.key)) set('keyboard');
  };
  const onPointer = () => set('pointer');
  set('none');
  doc.addEventListener('keydown', onKey, true);
  doc.addEventListener('pointerdown', onPointer, true);
  return () => {
    doc.removeEventListener('keydown', onKey, true);
    doc.removeEventListener('pointerdown', onPointer, true);
    root.removeAttribute(FOCUS_INPUT_ATTRIBUTE);
  };
}
