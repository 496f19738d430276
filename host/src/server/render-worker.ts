/**
 * The render worker: a process of its own, forked by `npm run serve` with a
 * scrubbed environment and a heap limit, that renders composed pages on
 * request over IPC. One worker is one generation: when a watched manifest
 * changes, the front server starts a new one and ends this one, so no
 * section code it loaded outlives the manifests that named it.
 */
import type { FromWorker, PageRequest, ToWorker } from '@portico/render/protocol';
import { createNodeSections } from './node-sections';
import { renderComposedPage } from './render-composed-page';

const nodeSections = createNodeSections();

function send(message: FromWorker): void {
  process.send?.(message);
}

const log = (line: string) => console.error(`Portico render worker: ${line}`);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function render(id: number, page: PageRequest): Promise<void> {
  const started = performance.now();
  try {
    const { html, sections } = await renderComposedPage(page, nodeSections, log);
    send({ type: 'page', id, html, sections, renderMs: performance.now() - started });
  } catch (error) {
    send({ type: 'failed', id, reason: messageOf(error) });
  }
}

/** Loads every section the pages name and renders each once, so the first visitor pays no first-time cost. */
async function warm(id: number, pages: PageRequest[]): Promise<void> {
  for (const page of pages) {
    try {
      await renderComposedPage(page, nodeSections, log);
    } catch (error) {
      log(`warming failed: ${messageOf(error)}`);
    }
  }
  send({ type: 'warmed', id });
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'render') void render(message.id, message.page);
  else if (message.type === 'warm') void warm(message.id, message.pages);
});
// The front server is gone: nothing will ask for a page again.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
