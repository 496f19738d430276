import { createTextLoader, useSectionText } from '@portico/shared-config';
import type { SectionText } from './section-text';

// One chunk per language, fetched from this remote: a visitor downloads only
// the language they read, and a text change ships with this remote alone.
export const loadTexts = createTextLoader<SectionText>({
  en: () => import(/* webpackChunkName: "__SECTION_ID__-text-en" */ './en').then(({ en }) => en),
  id: () => import(/* webpackChunkName: "__SECTION_ID__-text-id" */ './id').then(({ id }) => id),
});

export function useTexts(): SectionText {
  return useSectionText(loadTexts);
}
