import { Writable } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';

/**
 * The tree to HTML once everything in it is ready (`onAllReady`: no inline
 * script, so the CSP stays as it is). All or
 * nothing: a tree in which anything threw, or that is not ready by the
 * deadline, is not served (the caller leaves it to the browser).
 */
export function renderToHtml(tree: ReactNode, options: { deadlineMs: number; identifierPrefix?: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    let failed: unknown;
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        html += chunk.toString();
        done();
      },
      final(done) {
        if (failed === undefined) resolve(html);
        else reject(failed instanceof Error ? failed : new Error(String(failed)));
        done();
      },
    });
    const stream = renderToPipeableStream(tree, {
      identifierPrefix: options.identifierPrefix,
      onAllReady() {
        clearTimeout(timer);
        stream.pipe(sink);
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
      // All or nothing: markup with a boundary the server gave up on is not a render to serve.
      onError(error) {
        failed ??= error;
      },
    });
    const timer = setTimeout(() => stream.abort(new Error(`not rendered within ${options.deadlineMs} ms`)), options.deadlineMs);
  });
}
