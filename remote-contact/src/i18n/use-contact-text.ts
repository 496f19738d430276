import { createTextLoader, useSectionText } from '@portico/shared-config';
import type { ContactText } from './contact-text';

// One chunk per language, fetched from this remote: a visitor downloads only
// the language they read, and a text change ships with this remote alone.
export const loadContactText = createTextLoader<ContactText>({
  en: () => import(/* webpackChunkName: "contact-text-en" */ './en').then(({ en }) => en),
  id: () => import(/* webpackChunkName: "contact-text-id" */ './id').then(({ id }) => id),
});

export function useContactText(): ContactText {
  return useSectionText(loadContactText);
}
