import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The template: a working remote whose id and title are placeholders, type-checked, linted and tested in place. */
const TEMPLATE_DIR = path.join(__dirname, '../template');

/** What the template's texts and code say where the new section's id and title go. */
const PLACEHOLDERS = { id: '__SECTION_ID__', title: '__SECTION_TITLE__' } as const;

/** The marker of a file's interactive variant: `section-view.interactive.tsx` replaces `section-view.tsx` with --interactive. */
const VARIANT = '.interactive';

export interface TemplateFile {
  /** Where it goes, relative to the new remote's folder. */
  path: string;
  content: string;
}

/** `repay-calc` as a heading: `Repay calc`. The team writes its real title in its texts. */
function titleOf(id: string): string {
  const words = id.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`])),
  );
  return nested.flat().sort();
}

/**
 * The template's files for one section: the id and title filled in, and of
 * each file with an interactive variant the one asked for, under the plain
 * name (imports of the variant follow it).
 */
export async function templateFiles(id: string, interactive: boolean, templateDir = TEMPLATE_DIR): Promise<TemplateFile[]> {
  const all = await filesUnder(templateDir);
  const variants = new Set(all.filter((file) => file.includes(`${VARIANT}.`)));
  const chosen = all.filter((file) => (variants.has(file) ? interactive : !(interactive && variants.has(variantOf(file)))));
  return Promise.all(
    chosen.map(async (file) => {
      const content = (await readFile(path.join(templateDir, file), 'utf8'))
        .replaceAll(PLACEHOLDERS.id, id)
        .replaceAll(PLACEHOLDERS.title, titleOf(id))
        .replace(new RegExp(`\\${VARIANT}(?=['"])`, 'g'), '');
      return { path: file.replace(VARIANT, ''), content };
    }),
  );
}

/** A file's interactive variant: `a.tsx` -> `a.interactive.tsx`, `a.test.tsx` -> `a.interactive.test.tsx`. */
function variantOf(file: string): string {
  return file.replace(/(\.test)?(\.[^./]+)$/, `${VARIANT}$1$2`);
}
