import { folderHolder, readAdminFile } from '../admin/data-folder';
import { openStore } from '../contact-service';
import type { ContactSettings } from '../settings';
import type { StoredMessage } from '../store/message-store';

/** What the `messages` command does, wherever the messages are. */
export interface MessagesAccess {
  list(options: { since?: Date }): Promise<StoredMessage[]>;
  get(id: string): Promise<StoredMessage | undefined>;
  delete(id: string): Promise<boolean>;
  close(): Promise<void>;
}

export class AccessError extends Error {}

/** Dates come back from JSON as strings. */
function revive(message: StoredMessage): StoredMessage {
  return {
    ...message,
    receivedAt: new Date(message.receivedAt),
    delivery: { ...message.delivery, deliveredAt: message.delivery.deliveredAt && new Date(message.delivery.deliveredAt) },
  };
}

/** The running server's admin endpoint on 127.0.0.1. */
function throughServer(port: number, token: string): MessagesAccess {
  const call = async (method: string, route: string) => {
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${port}${route}`, { method, headers: { Authorization: `Bearer ${token}` } });
    } catch (error) {
      throw new AccessError(`the server's admin endpoint on 127.0.0.1:${port} does not answer (${(error as Error).message})`);
    }
    const body = (await response.json()) as unknown;
    if (response.status === 401) throw new AccessError('the server refused the admin token: set PORTICO_ADMIN_TOKEN as the server has it');
    return { status: response.status, body };
  };
  return {
    async list({ since }) {
      const { status, body } = await call('GET', `/messages${since ? `?since=${encodeURIComponent(since.toISOString())}` : ''}`);
      if (status !== 200) throw new AccessError((body as { error: string }).error);
      return (body as StoredMessage[]).map(revive);
    },
    async get(id) {
      const { status, body } = await call('GET', `/messages/${encodeURIComponent(id)}`);
      return status === 200 ? revive(body as StoredMessage) : undefined;
    },
    async delete(id) {
      return (await call('DELETE', `/messages/${encodeURIComponent(id)}`)).status === 200;
    },
    close: () => Promise.resolve(),
  };
}

/**
 * With DATABASE_URL, the server directly. With the embedded database, the
 * running server's admin endpoint when a server holds the folder (PGlite is
 * one process per folder), else the folder itself.
 */
export async function openMessagesAccess(settings: ContactSettings, log?: (line: string) => void): Promise<MessagesAccess> {
  if (!settings.databaseUrl) {
    const holder = folderHolder(settings.dataDir);
    if (holder !== undefined) {
      const admin = readAdminFile(settings.dataDir);
      const token = settings.adminToken ?? admin?.token;
      if (!admin || admin.pid !== holder || !token) {
        throw new AccessError(
          `process ${holder} holds ${settings.dataDir} and offers no admin endpoint to this user; run the command as the server's user, set PORTICO_ADMIN_TOKEN as the server has it, or stop the server`,
        );
      }
      return throughServer(admin.port, token);
    }
  }
  const { store, release } = await openStore(settings, log);
  return {
    list: (options) => store.list(options),
    get: (id) => store.get(id),
    delete: (id) => store.delete(id),
    async close() {
      await store.close();
      release();
    },
  };
}

