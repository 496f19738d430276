import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContactService } from '../contact-service';

/**
 * The host port's part that concerns contact messages: `/api/` to the
 * service, as `startPortico` routes it; anything else 404.
 */
export async function serveApi(service: Pick<ContactService, 'handleApi'>, port = 0): Promise<{ base: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if ((req.url ?? '').startsWith('/api/')) return service.handleApi(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
