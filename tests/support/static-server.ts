import { createServer } from 'node:http';
import { linesLogger } from '@portico/platform/testing';
import { commonHeadersFor, writeAnswer } from '@portico/platform/http';
import { answerFailure, pageHeaders, staticFiles, type FileRequest } from '@portico/server';

export interface StaticServer {
  /** The URL of `prefix` on this server, e.g. `http://localhost:8300/contact/v2/`. */
  url: string;
  close(): Promise<void>;
}

/**
 * One remote's dist/ served under a sub-path, as a CDN would host a team's
 * versioned build (`/contact/v2/mf-manifest.json`), with the same headers as
 * `npm run serve` gives a remote.
 */
export async function serveUnderPath(dir: string, prefix: string, port: number): Promise<StaticServer> {
  const files = staticFiles<FileRequest>(dir, { crossOrigin: true, pageHeaders: () => Promise.resolve(pageHeaders([])) });
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const notFound = () => void res.writeHead(404).end();
    if (!url.startsWith(prefix)) return notFound();
    req.url = url.slice(prefix.length - 1);
    files({ raw: req }, () => ({ status: 404, headers: {} }))
      .then((answer) => writeAnswer(res, answer, commonHeadersFor(answer.headers['Content-Type'])))
      .catch((error: unknown) => answerFailure(req, res, error, linesLogger(console.error)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return {
    url: `http://localhost:${port}${prefix}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
