import { loadPack, PorticoProvider, type Language, type TextPack } from '@portico/shared-config';
import { sampleConfig } from '@portico/shared-config/sample-config';
import type { SectionModule } from '@portico/shared-config/contract';
import { renderToString } from 'react-dom/server';

export interface RenderSectionOptions {
  language?: Language;
  /** Changes to the language's texts, to tell the caller's provider from any other. */
  text?: (pack: TextPack) => TextPack;
}

/**
 * A section rendered to HTML inside the providers a section expects today
 * (PorticoProvider with config, language and texts): the one place to change
 * when the section contract's providers change.
 */
export async function renderSection({ Section }: SectionModule, { language = 'en', text = (pack) => pack }: RenderSectionOptions = {}) {
  const pack = text(await loadPack(language));
  return renderToString(
    <PorticoProvider config={sampleConfig} language={language} text={pack}>
      <Section />
    </PorticoProvider>,
  );
}
