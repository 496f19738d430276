import { createTextLoader, useSectionText } from '@portico/shared-config';
import type { HomeText } from './home-text';

// One chunk per language, fetched from this remote: a visitor downloads only
// the language they read, and a text change ships with this remote alone.
export const loadHomeText = createTextLoader<HomeText>({
  en: () => import(/* webpackChunkName: "home-text-en" */ './en').then(({ en }) => en),
  id: () => import(/* webpackChunkName: "home-text-id" */ './id').then(({ id }) => id),
});

export function useHomeText(): HomeText {
  return useSectionText(loadHomeText);
}
