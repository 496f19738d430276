import { setImmediate } from 'node:timers';
import { loadPack, PorticoProvider } from '@portico/shared-config';
import type { Language } from '@portico/contract/languages';
import { act } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { prerenderToNodeStream } from 'react-dom/static.node';
import { sampleConfig } from './sample-config';

export interface ServerRendered {
  /** The element holding the server's HTML, in the document. */
  container: HTMLElement;
  /** Hydrates it as the page does an island: what React reported (a mismatch is a recoverable error), none when all is well. */
  hydrate(): Promise<unknown[]>;
}

/**
 * A section as the server renders it (React's Node prerender, which waits
 * for its texts as the render worker does), put into the document, with the
 * hydration the page does later: for testing what a section's HTML does
 * before its code arrives, and that hydrating it keeps what was done.
 */
export async function renderOnServer(ui: ReactElement, { language = 'en' }: { language?: Language } = {}): Promise<ServerRendered> {
  // jsdom's globals lack the timer React's Node renderer schedules with.
  Object.assign(globalThis, { setImmediate: globalThis.setImmediate ?? setImmediate });
  const text = await loadPack(language);
  const tree: ReactNode = (
    <PorticoProvider config={sampleConfig} language={language} text={text}>
      {ui}
    </PorticoProvider>
  );
  const { prelude } = await prerenderToNodeStream(tree);
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.append(container);
  return {
    container,
    async hydrate() {
      const errors: unknown[] = [];
      // One message is this test's own doing: the server's renderer and the
      // browser's share one context object only here, in one process.
      const logged = jest.spyOn(console, 'error').mockImplementation((message: unknown, ...rest: unknown[]) => {
        if (!String(message).startsWith('Detected multiple renderers')) errors.push([message, ...rest].map(String).join(' '));
      });
      try {
        await act(async () => {
          hydrateRoot(container, tree, { onRecoverableError: (error) => errors.push(error) });
        });
      } finally {
        logged.mockRestore();
      }
      return errors;
    },
  };
}
