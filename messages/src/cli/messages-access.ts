import { controlToken, controlUrl } from '../control/control-address';
import { openStore } from '../contact-service';
import type { ContactSettings } from '../settings';
import { folderHolder } from '../store/data-folder';
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

/** Why the control API refused, in the operator's words. */
function refusal(status: number, body: unknown, tokenFrom: string): string | undefined {
  const error = typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: unknown }).error) : `answered ${status}`;
  if (status === 401) return `the control API refused the token from ${tokenFrom}: ${error}`;
  if (status === 403) return `the token from ${tokenFrom} may not read messages (it needs the messages scope): ${error}`;
  if (status === 429 || status >= 500) return `the control API: ${error}`;
  return undefined;
}

/** The running server's control API (`/api/messages`), with the owner's or PORTICO_TOKEN's token. */
function throughControlApi(base: string, token: string, tokenFrom: string): MessagesAccess {
  const call = async (method: string, route: string) => {
    let response: Response;
    try {
      response = await fetch(`${base}${route}`, { method, headers: { Authorization: `Bearer ${token}` } });
    } catch (error) {
      throw new AccessError(`the server's control API at ${base} does not answer (${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}); set PORTICO_CONTROL_URL if it listens elsewhere`);
    }
    const body = (await response.json().catch(() => undefined)) as unknown;
    const refused = refusal(response.status, body, tokenFrom);
    if (refused) throw new AccessError(refused);
    return { status: response.status, body };
  };
  return {
    async list({ since }) {
      const { status, body } = await call('GET', `/api/messages${since ? `?since=${encodeURIComponent(since.toISOString())}` : ''}`);
      if (status !== 200) throw new AccessError((body as { error?: string } | undefined)?.error ?? `the control API answered ${status}`);
      return (body as StoredMessage[]).map(revive);
    },
    async get(id) {
      const { status, body } = await call('GET', `/api/messages/${encodeURIComponent(id)}`);
      return status === 200 ? revive(body as StoredMessage) : undefined;
    },
    async delete(id) {
      return (await call('DELETE', `/api/messages/${encodeURIComponent(id)}`)).status === 200;
    },
    close: () => Promise.resolve(),
  };
}

/**
 * With DATABASE_URL, the server directly. With the embedded database, the
 * running server's control API when a server holds the folder (PGlite is
 * one process per folder), else the folder itself.
 */
export async function openMessagesAccess(settings: ContactSettings, env: NodeJS.ProcessEnv, log?: (line: string) => void): Promise<MessagesAccess> {
  if (!settings.databaseUrl) {
    const holder = folderHolder(settings.dataDir);
    if (holder !== undefined) {
      const token = controlToken(env, settings.dataDir);
      if (!token) {
        throw new AccessError(
          `process ${holder} holds ${settings.dataDir}; the command reaches its messages through the control API, with a token: set PORTICO_TOKEN (one with the messages scope), run the command as the server's user (who reads the owner token in the data folder), or stop the server`,
        );
      }
      return throughControlApi(controlUrl(env), token.token, token.from);
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

