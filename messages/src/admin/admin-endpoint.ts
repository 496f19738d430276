import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageStore } from '../store/message-store';

/**
 * The lender's way into the embedded database while the server holds it:
 * list, show, export and delete, on 127.0.0.1 only, each request carrying
 * the token. The `messages` command is its one client.
 */
export interface AdminEndpoint {
  port: number;
  close(): Promise<void>;
}

function sameToken(given: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export async function startAdminEndpoint(options: { store: Pick<MessageStore, 'list' | 'get' | 'delete'>; token: string }): Promise<AdminEndpoint> {
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (!sameToken(req.headers.authorization, options.token)) return answer(res, 401, { error: 'a valid admin token is needed' });
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const [, collection, id, ...rest] = url.pathname.split('/');
    if (collection !== 'messages' || rest.length > 0) return answer(res, 404, { error: 'no such path' });
    if (id === undefined || id === '') {
      if (req.method !== 'GET') return answer(res, 405, { error: 'GET only' });
      const sinceText = url.searchParams.get('since');
      const since = sinceText ? new Date(sinceText) : undefined;
      if (since && Number.isNaN(since.getTime())) return answer(res, 400, { error: 'since is not a date' });
      return answer(res, 200, await options.store.list({ since }));
    }
    if (req.method === 'GET') {
      const message = await options.store.get(id);
      return message ? answer(res, 200, message) : answer(res, 404, { error: `no message ${id}` });
    }
    if (req.method === 'DELETE') {
      return (await options.store.delete(id)) ? answer(res, 200, { deleted: id }) : answer(res, 404, { error: `no message ${id}` });
    }
    return answer(res, 405, { error: 'GET or DELETE only' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => answer(res, 503, { error: (error as Error).message }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
