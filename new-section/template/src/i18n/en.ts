import type { SectionText } from './section-text';

/** This section's texts in English (India). */
export const en: SectionText = {
  heading: '__SECTION_TITLE__',
  intro: 'The __SECTION_TITLE__ team writes this section’s texts here, in English and in Indonesian.',
  nameLabel: 'Your name',
  greeting: 'Hello, {name}.',
};
