import type { SectionRenderRequest } from '@portico/node-sections/protocol';
import { loadPack, PorticoIslandProvider, type PorticoContextValue, type SectionModule } from '@portico/shared-config';
import { type SectionId } from '@portico/contract/sections';
import { Suspense } from 'react';
import { islandIdPrefix } from '../remotes/island-contract';
import { renderToHtml } from './render-to-html';

/** A section's render may take this long (its texts are in its one file); a section still pending then is left to the browser. */
const SECTION_DEADLINE_MS = 2000;

/** Freezes `value` and everything it holds, so nothing a render does to it is seen by the next. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}

/**
 * One section's HTML, as its island in the browser hydrates it: the section
 * inside the page's context and a Suspense boundary, under the section's own
 * id prefix (see SectionIsland, whose tree puts the section at the same
 * place). What the section is given is frozen: the config and the problems
 * arrive fresh with each request, and the host's texts are frozen once, so a
 * section that writes to them changes nothing for the next visitor.
 */
export async function renderSectionHtml({ Section }: SectionModule, section: SectionId, request: Omit<SectionRenderRequest, 'build'>): Promise<string> {
  const text = deepFreeze(await loadPack(request.language));
  const value: PorticoContextValue = deepFreeze({
    config: request.config,
    problems: request.problems,
    language: request.language,
    text,
    // A section cannot switch the page's language on the server.
    switchLanguage: () => Promise.resolve(false),
  });
  return renderToHtml(
    <PorticoIslandProvider value={value}>
      <Suspense fallback={null}>
        <Section />
      </Suspense>
    </PorticoIslandProvider>,
    { deadlineMs: SECTION_DEADLINE_MS, identifierPrefix: islandIdPrefix(section) },
  );
}
