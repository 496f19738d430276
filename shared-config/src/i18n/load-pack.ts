import { createTextLoader } from './create-text-loader';
import type { TextPack } from './text-pack';

// The host's own texts, one webpack chunk per language. Destructured on
// purpose: webpack reads `module.id` as CommonJS's own module id, and would
// then tree-shake the `id` export away, leaving an empty chunk.
export const loadPack = createTextLoader<TextPack>({
  en: () => import(/* webpackChunkName: "text-en" */ './en').then(({ en }) => en),
  id: () => import(/* webpackChunkName: "text-id" */ './id').then(({ id }) => id),
});
