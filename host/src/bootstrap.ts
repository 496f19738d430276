import { readPageData } from './app/read-page-data';
import type { PageModule } from './page-start';
import { loadSection } from './remotes/federation-runtime';
import { startIslands } from './start-islands';

async function start(page: Promise<PageModule>): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  // A server-rendered page carries config.json, the language and the
  // manifests it was rendered from: its islands start from the same ones.
  const pageData = readPageData(document);
  if (pageData) return startIslands(pageData, page, loadSection);
  // The client-rendered page's reader of config.json (zod) is a chunk of its own, requested by index.ts already.
  const { startClientPage } = await import(/* webpackChunkName: "client-page" */ './start-client-page');
  return startClientPage(container, page);
}

/**
 * Starts the page with React and the shell (`render-page`), whose chunk
 * index.ts requested beside this one: one request, one chunk, where an
 * import of its own here would make webpack split the module into a second
 * chunk and fetch it twice.
 */
export function startPage(page: Promise<PageModule>): void {
  void start(page).catch((error: unknown) => {
    // Without its texts the page has no language to speak, so it says both.
    console.error('Portico: the page could not start', error);
    const container = document.getElementById('root');
    // A server-rendered page stays readable as it is; the client-rendered one would be blank.
    if (container && !readPageData(document)) {
      container.textContent = 'This page could not load. Please reload it. / Halaman ini gagal dimuat. Silakan muat ulang.';
    }
  });
}
