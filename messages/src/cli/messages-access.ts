import { localActor } from '../audit/local-actor';
import { controlToken, controlUrl, type ControlToken } from '@portico/platform/control-address';
import { openStore } from '../contact-service';
import { SettingsError } from '@portico/platform/settings-error';
import type { ContactSettings } from '../settings';
import { folderHolder } from '@portico/platform/data-folder';
import type { OperatorMessages, StoredMessage } from '../store/message-store';

/** What the `messages` command does, on the store the running server uses, and which store that is. */
export interface MessagesAccess extends OperatorMessages {
  /** The store read, in the operator's words (said before anything is read). */
  where: string;
  close(): Promise<void>;
}

export class AccessError extends Error {}

/** How long the control API has to answer whether it is there. */
const PROBE_MS = 5000;

/** Dates come back from JSON as strings. */
function revive(message: StoredMessage): StoredMessage {
  return {
    ...message,
    receivedAt: new Date(message.receivedAt),
    delivery: { ...message.delivery, deliveredAt: message.delivery.deliveredAt && new Date(message.delivery.deliveredAt) },
  };
}

/** A database URL to show: its password, if it has one, left out. */
function shownUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@]*@/, '$1:***@');
}

/** The store this machine's settings name, as the command says it. */
function localStore(settings: ContactSettings): string {
  return settings.databaseUrl ? `the PostgreSQL database in DATABASE_URL (${shownUrl(settings.databaseUrl)})` : `the embedded database in ${settings.dataDir}`;
}

/** Why the control API refused, in the operator's words. */
function refusal(status: number, body: unknown, base: string, token: ControlToken, settings: ContactSettings): string | undefined {
  const error = typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: unknown }).error) : `answered ${status}`;
  if (status === 401) {
    return (
      `the server at ${base} refused the token from ${token.from} (${error}): it is not one of that server's tokens, so which store that server uses cannot be told, ` +
      `and ${localStore(settings)} may not be it. Set PORTICO_TOKEN to a token of that server with the messages scope`
    );
  }
  if (status === 403) return `the token from ${token.from} may not read messages (it needs the messages scope): ${error}`;
  if (status === 429 || status >= 500) return `the control API: ${error}`;
  return undefined;
}

/** The running server's control API (`/api/messages`), which audits each call under the token's name. */
function throughControlApi(base: string, token: ControlToken, settings: ContactSettings): MessagesAccess {
  const call = async (method: string, route: string) => {
    let response: Response;
    try {
      response = await fetch(`${base}${route}`, { method, headers: { Authorization: `Bearer ${token.token}` } });
    } catch (error) {
      throw new AccessError(`the server's control API at ${base} does not answer (${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}); set PORTICO_CONTROL_URL if it listens elsewhere`);
    }
    const body = (await response.json().catch(() => undefined)) as unknown;
    const refused = refusal(response.status, body, base, token, settings);
    if (refused) throw new AccessError(refused);
    return { status: response.status, body };
  };
  return {
    where: `the messages of the server at ${base}, through its control API (the token from ${token.from})`,
    async list({ since, export: format }) {
      const query = new URLSearchParams();
      if (since) query.set('since', since.toISOString());
      if (format) query.set('export', format);
      const { status, body } = await call('GET', `/api/messages${query.size > 0 ? `?${query}` : ''}`);
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
 * Whether a server's control API answers at `base`: any HTTP answer to a
 * request with no token (a `401`, which reads nothing and counts as no
 * failed attempt) says one listens; a refused connection says none does.
 */
async function controlApiAnswers(base: string): Promise<boolean> {
  try {
    await fetch(`${base}/api/messages`, { signal: AbortSignal.timeout(PROBE_MS) });
    return true;
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      throw new AccessError(`something at ${base} accepted a connection but did not answer within ${PROBE_MS / 1000} s: whether a server runs, and which store it uses, cannot be told; set PORTICO_CONTROL_URL to its control API`);
    }
    return false;
  }
}

/**
 * The store the running server uses. Through its control API when a server
 * answers at PORTICO_CONTROL_URL (or PORT+4) and a token is available;
 * else the database DATABASE_URL names; else the embedded folder. Refused,
 * naming both, when the command cannot tell which store the server uses: a
 * server answers without a token to ask it with, and nothing on this
 * machine says it uses the store the command would read (it does not hold
 * the embedded folder, and DATABASE_URL is unset). Read straight on the
 * database, each read and deletion is audited as `local:<OS user>`.
 */
export async function openMessagesAccess(settings: ContactSettings, env: NodeJS.ProcessEnv, log?: (line: string) => void): Promise<MessagesAccess> {
  let base: string;
  let token: ControlToken | undefined;
  try {
    base = controlUrl(env);
    token = controlToken(env, settings.dataDir);
  } catch (error) {
    if (error instanceof SettingsError) throw new AccessError(error.message);
    throw error;
  }
  const serverAnswers = await controlApiAnswers(base);
  if (serverAnswers && token) return throughControlApi(base, token, settings);

  // The embedded database is one process's: a holder is the server, reached only through its control API.
  const holder = folderHolder(settings.dataDir);
  if (holder !== undefined && !settings.databaseUrl) {
    if (serverAnswers) {
      throw new AccessError(
        `process ${holder} holds ${settings.dataDir}; the command reaches its messages through the control API at ${base}, with a token: set PORTICO_TOKEN (one with the messages scope), run the command as the server's user (who reads the owner token in the data folder), or stop the server`,
      );
    }
    throw new AccessError(
      token
        ? `process ${holder} holds ${settings.dataDir}, and the server's control API at ${base} does not answer; set PORTICO_CONTROL_URL if it listens elsewhere, or stop the server`
        : `process ${holder} holds ${settings.dataDir}, and no control API answers at ${base}: set PORTICO_CONTROL_URL to its control API and PORTICO_TOKEN to a token with the messages scope, or stop the server`,
    );
  }
  if (serverAnswers && holder !== undefined && settings.databaseUrl) {
    throw new AccessError(
      `a server answers at ${base} and process ${holder} holds the embedded database in ${settings.dataDir}, while DATABASE_URL names ${shownUrl(settings.databaseUrl)}: which store the server uses cannot be told. ` +
        'Set PORTICO_TOKEN to one of its tokens with the messages scope, or unset DATABASE_URL',
    );
  }
  if (serverAnswers && !settings.databaseUrl) {
    throw new AccessError(
      `a server answers at ${base}, and it does not hold the embedded database in ${settings.dataDir}: it uses another store (a database server), whose messages these are not. ` +
        `Reading ${settings.dataDir} would show other messages, so nothing was read. Set PORTICO_TOKEN to one of its tokens with the messages scope, or DATABASE_URL to the database it uses`,
    );
  }

  const { store, release } = await openStore(settings, log);
  const operator = store.operator(localActor());
  return {
    where: `${localStore(settings)}${serverAnswers ? '' : `; no server answers at ${base}`}`,
    ...operator,
    async close() {
      await store.close();
      release();
    },
  };
}
