import type { TextPack } from '../i18n/text-pack';
import { usePortico } from './use-portico';

export function useText(): TextPack {
  return usePortico().text;
}
