import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
// Imported by package name, not by relative path: the section under test
// reads the context through the federated `@portico/shared-config` instance,
// and this provider must be that same instance.
import { languageFromSearch, loadPack, PorticoProvider, type SectionProps } from '@portico/shared-config';
import { sampleConfig } from '../testing/sample-config';
import '../styles/base.css';

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
  document.documentElement.lang = text.locale;
  createRoot(container).render(
    <StrictMode>
      <PorticoProvider config={sampleConfig} language={language} text={text}>
        <main className="standalone">
          <Section />
        </main>
      </PorticoProvider>
    </StrictMode>,
  );
}
