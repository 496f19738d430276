import { loadConfig, PorticoProvider } from '@portico/shared-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { resolvePageRemotes } from './remotes/page-remotes';
import { RemoteUrlsContext } from './remotes/remote-urls-context';
import { logCaughtError } from './remotes/section-boundary';
import '@portico/shared-config/base.css';
import './app/app.css';

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const { config, problems } = await loadConfig();
  if (problems.length > 0) {
    console.error(
      `Portico: config.json has ${problems.length} problem(s):\n${problems.map((p) => `- ${p.field}: ${p.message}`).join('\n')}`,
    );
  }
  const remotes = resolvePageRemotes(config, window.location.search);
  createRoot(container, { onCaughtError: logCaughtError }).render(
    <StrictMode>
      <PorticoProvider config={config} problems={problems} language="en">
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

void start();
