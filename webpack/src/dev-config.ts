import { SECTION_IDS } from '@portico/contract/sections';

/**
 * The dev server's config.json: the sections' own code on this machine, and a
 * page rendered in the browser only, so every section the file does not say
 * otherwise of is granted script (docs/decisions/section-script.md): Home and
 * About, static where `npm run serve` renders them, would otherwise show
 * their alert in `npm run dev`.
 */
export function grantingScript(body: string): string {
  const config = JSON.parse(body) as { sections?: Record<string, { interactive?: boolean }> };
  const sections = { ...config.sections };
  for (const id of SECTION_IDS) sections[id] = { interactive: sections[id]?.interactive ?? true };
  return JSON.stringify({ ...config, sections });
}
