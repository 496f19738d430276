import { loadPack, PorticoProvider } from '@portico/shared-config';
import { type Language } from '@portico/contract/languages';
import type { SectionModule } from '@portico/shared-config/contract';
import { sampleConfig } from '@portico/testing/sample-config';
import { prerenderToNodeStream } from 'react-dom/static';

export interface RenderSectionOptions {
  language?: Language;
}

/**
 * A section rendered to HTML inside the providers a section expects today
 * (PorticoProvider with config, language and texts): the one place to change
 * when the section contract's providers change.
 */
export async function renderSection({ Section }: SectionModule, { language = 'en' }: RenderSectionOptions = {}) {
  const pack = await loadPack(language);
  // A section suspends until its own texts arrive; prerendering waits for
  // every boundary, as the server render does (onAllReady).
  const { prelude } = await prerenderToNodeStream(
    <PorticoProvider config={sampleConfig} language={language} text={pack}>
      <Section />
    </PorticoProvider>,
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return html;
}
