import { createTextLoader, useSectionText } from '@portico/shared-config';
import type { AboutText } from './about-text';

// One chunk per language, fetched from this remote: a visitor downloads only
// the language they read, and a text change ships with this remote alone.
export const loadAboutText = createTextLoader<AboutText>({
  en: () => import(/* webpackChunkName: "about-text-en" */ './en').then(({ en }) => en),
  id: () => import(/* webpackChunkName: "about-text-id" */ './id').then(({ id }) => id),
});

export function useAboutText(): AboutText {
  return useSectionText(loadAboutText);
}
