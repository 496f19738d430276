import type { SectionId } from '@portico/contract/sections';
import type { TextPack } from './text-pack';

/**
 * A section's name in the host's texts: the built-in ones' from the language
 * pack; one added at run time is named by its entry's label where the caller
 * has it (section-entries.ts), else by its id.
 */
export function sectionLabel(text: Pick<TextPack, 'nav'>, section: SectionId, label?: string): string {
  return label ?? (text.nav.tabs as Partial<Record<SectionId, string>>)[section] ?? section;
}
