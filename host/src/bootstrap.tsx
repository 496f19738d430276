import { registerPlugins } from '@module-federation/enhanced/runtime';
import { loadConfig, PorticoProvider } from '@portico/shared-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { remoteIntegrityPlugin } from './remotes/integrity-plugin';
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
  // Before any section loads: manifests pinned in config.json are checked,
  // and every remoteEntry.js is loaded with the hash its manifest gives.
  registerPlugins([remoteIntegrityPlugin(config)]);
  createRoot(container).render(
    <StrictMode>
      <PorticoProvider config={config} problems={problems} language="en">
        <App />
      </PorticoProvider>
    </StrictMode>,
  );
}

void start();
