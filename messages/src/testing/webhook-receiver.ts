import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The lender's webhook, on loopback: records every call and answers with
 * `status()` (200 unless the test says otherwise; a promise holds the answer).
 */
export async function startWebhookReceiver(status: (call: ReceivedCall, index: number) => number | Promise<number> = () => 200) {
  const calls: ReceivedCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const call = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      calls.push(call);
      void Promise.resolve(status(call, calls.length - 1)).then((code) => res.writeHead(code).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/contact`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
