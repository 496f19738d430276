import type { Language } from '@portico/contract/languages';
import { sectionsEn } from './sections-en';
import { sectionsId } from './sections-id';
import type { TextPack } from './text-pack';

export { fill } from './fill';

/**
 * The host's texts around a section, in both languages, without the rest of
 * the packs and without the singleton: for a script that shows a section's
 * alert before any of the host's code is there (the page script, when the
 * host's entry fails to load), fetched only then.
 */
export const SECTION_TEXTS: Readonly<Record<Language, TextPack['sections']>> = { en: sectionsEn, id: sectionsId };
