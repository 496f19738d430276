import { type SectionModule } from '@portico/shared-config';
import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import type { SectionLoads } from '../../host/src/remotes/load-section';
import * as about from '../../remote-about/src/exposes/section';
import * as contact from '../../remote-contact/src/exposes/section';
import * as home from '../../remote-home/src/exposes/section';

/**
 * Stands in for the host's `remotes/load-section.ts` and
 * `remotes/federation-runtime.ts` in the benchmark's
 * single-bundle build: the same three exposed modules, imported directly
 * into the host's bundle instead of loaded through Module Federation.
 */
const SECTIONS: Record<SectionId, SectionModule> = { home, about, contact };

/** @public federation-runtime's `loadSection`, as the replacement stands in for that module too (replace-host-loader.ts). */
export function loadSection(section: SectionId): Promise<SectionModule> {
  const module = SECTIONS[section];
  return module ? Promise.resolve(module) : Promise.reject(new Error(`the single bundle holds no section ${section}`));
}

/** Nothing to load: every section is in the bundle already. */
export function startSections(): SectionLoads {
  const loaded = (section: SectionId) => ({ first: loadSection(section), again: () => loadSection(section) });
  return Object.fromEntries(SECTION_IDS.map((section) => [section, loaded(section)])) as SectionLoads;
}
