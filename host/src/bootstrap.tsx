import {
  configWarnings,
  languageFromSearch,
  loadConfig,
  loadPack,
  PorticoProvider,
  type Language,
  type TextPack,
} from '@portico/shared-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { applyTheme } from './app/apply-theme';
import { resolvePageRemotes } from './remotes/page-remotes';
import { RemoteUrlsContext } from './remotes/remote-urls-context';
import { logCaughtError } from './remotes/section-boundary';
import '@portico/shared-config/base.css';
import './app/app.css';

/** The visitor's pack; a chunk lost on a flaky network is fetched once more. */
function loadTexts(language: Language): Promise<TextPack> {
  return loadPack(language).catch(() => loadPack(language));
}

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const language = languageFromSearch(window.location.search);
  // Both travel at once: the pack is a small chunk of the host's own origin.
  const [{ config, problems }, text] = await Promise.all([loadConfig(), loadTexts(language)]);
  if (problems.length > 0) {
    console.error(
      `Portico: config.json has ${problems.length} problem(s):\n${problems.map((p) => `- ${p.field}: ${p.message}`).join('\n')}`,
    );
  }
  for (const warning of configWarnings(config)) console.warn(`Portico: ${warning}`);
  document.documentElement.lang = text.locale;
  applyTheme(config.theme);
  const remotes = resolvePageRemotes(config, window.location.search);
  createRoot(container, { onCaughtError: logCaughtError }).render(
    <StrictMode>
      <PorticoProvider config={config} problems={problems} language={language} text={text}>
        <RemoteUrlsContext value={remotes}>
          <App />
        </RemoteUrlsContext>
      </PorticoProvider>
    </StrictMode>,
  );
  // An older version of the site may have left a service worker that would
  // pin stale remotes; removing it is off the critical path, in its own chunk.
  if ('serviceWorker' in navigator) {
    void import('@portico/shared-config/service-worker').then(({ unregisterServiceWorkers }) => unregisterServiceWorkers());
  }
}

void start().catch((error: unknown) => {
  // Without its texts the page has no language to speak, so it says both.
  console.error('Portico: the page could not start', error);
  const container = document.getElementById('root');
  if (container) {
    container.textContent =
      'This page could not load. Please reload it. / Halaman ini gagal dimuat. Silakan muat ulang.';
  }
});
