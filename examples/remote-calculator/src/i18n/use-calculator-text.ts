import { createTextLoader, useSectionText } from '@portico/shared-config';
import type { CalculatorText } from './calculator-text';

// One chunk per language, fetched from this remote: a visitor downloads only
// the language they read, and a text change ships with this remote alone.
export const loadCalculatorText = createTextLoader<CalculatorText>({
  en: () => import(/* webpackChunkName: "calculator-text-en" */ './en').then(({ en }) => en),
  id: () => import(/* webpackChunkName: "calculator-text-id" */ './id').then(({ id }) => id),
});

export function useCalculatorText(): CalculatorText {
  return useSectionText(loadCalculatorText);
}
