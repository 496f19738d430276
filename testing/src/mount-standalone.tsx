import { StrictMode, Suspense, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
// The section reads the context through the federated
// `@portico/shared-config` instance; this provider is that same instance.
import { loadPack, PorticoProvider, type SectionProps } from '@portico/shared-config';
import { languageFromSearch, localeOf } from '@portico/contract/languages';
import '@portico/shared-config/base.css';
import { sampleConfig } from './sample-config';

/**
 * A section's own page for its team: the section alone, with a sample config,
 * no host and no other remote. `?type=2` shows it in Indonesian, as on the site.
 */
export async function mountStandalone(Section: ComponentType<SectionProps>, title: string): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('the standalone page has no #root element');
  document.title = `${title} (standalone)`;
  const language = languageFromSearch(window.location.search);
  const text = await loadPack(language);
  document.documentElement.lang = localeOf(language);
  createRoot(container).render(
    <StrictMode>
      <PorticoProvider config={sampleConfig} language={language} text={text}>
        <main className="standalone">
          {/* The section suspends while its texts download, as on the site. */}
          <Suspense>
            <Section />
          </Suspense>
        </main>
      </PorticoProvider>
    </StrictMode>,
  );
}
