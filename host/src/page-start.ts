import { loadPack, type TextPack } from '@portico/shared-config';
import type { Language } from '@portico/contract/languages';

/** React and the shell, whose chunk index.ts requests beside the start's. */
export type PageModule = typeof import('./app/render-page');

/** The visitor's pack; a chunk lost on a flaky network is fetched once more. */
export function loadTexts(language: Language): Promise<TextPack> {
  return loadPack(language).catch(() => loadPack(language));
}
