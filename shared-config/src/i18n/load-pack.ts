import type { Language } from './language';
import type { TextPack } from './text-pack';

// One webpack chunk per pack: a visitor downloads only the language they read.
// Destructured on purpose: webpack reads `module.id` as CommonJS's own module
// id, and would then tree-shake the `id` export away, leaving an empty chunk.
const IMPORTS: Record<Language, () => Promise<TextPack>> = {
  en: () => import(/* webpackChunkName: "text-en" */ './en').then(({ en }) => en),
  id: () => import(/* webpackChunkName: "text-id" */ './id').then(({ id }) => id),
};

const loaded = new Map<Language, Promise<TextPack>>();

/**
 * The texts of one language, fetched on first use. A failed fetch is
 * forgotten, so asking again really retries.
 */
export function loadPack(language: Language): Promise<TextPack> {
  let pending = loaded.get(language);
  if (!pending) {
    pending = IMPORTS[language]();
    loaded.set(language, pending);
    pending.catch(() => loaded.delete(language));
  }
  return pending;
}
