import type { SectionText } from './section-text';

/** This section's texts in Indonesian (Indonesia). */
export const id: SectionText = {
  heading: '__SECTION_TITLE__',
  intro: 'Tim __SECTION_TITLE__ menulis teks bagian ini di sini, dalam bahasa Inggris dan bahasa Indonesia.',
  nameLabel: 'Nama Anda',
  greeting: 'Halo, {name}.',
};
