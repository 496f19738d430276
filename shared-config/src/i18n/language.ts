import { en } from './en';
import type { TextPack } from './text-pack';

export const LANGUAGES = ['en'] as const;
export type Language = (typeof LANGUAGES)[number];

export function packFor(_language: Language): TextPack {
  return en;
}
