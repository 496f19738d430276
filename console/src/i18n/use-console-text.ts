import { createContext, useContext } from 'react';
import type { Language } from '@portico/contract/languages';
import type { ConsoleText } from './console-text';
import { en } from './en';
import { id } from './id';

/** Both packs are in the first load: together a few kilobytes, and a switch is then instant. */
export const CONSOLE_TEXTS: Readonly<Record<Language, ConsoleText>> = { en, id };

export interface ConsoleLanguage {
  language: Language;
  text: ConsoleText;
  setLanguage(language: Language): void;
}

export const ConsoleTextContext = createContext<ConsoleLanguage>({ language: 'en', text: en, setLanguage: () => undefined });

export function useConsoleText(): ConsoleText {
  return useContext(ConsoleTextContext).text;
}

export function useConsoleLanguage(): ConsoleLanguage {
  return useContext(ConsoleTextContext);
}
