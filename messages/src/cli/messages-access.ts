import { ControlSettingsError, ControlUnreachableError, controlClient, localActor, type ControlClient } from '@portico/platform/command-line';
import type { ControlToken } from '@portico/platform/control-address';
import { openStore } from '../contact-service';
import type { ContactSettings } from '../settings';
import { folderHolder } from '@portico/platform/data-folder';
import type { OperatorMessages } from '../store/message-store';
import {
  messagesRoutes,
  ApiAnswerMismatch,
  apiClient,
  ApiRefusal,
  ApiUnreachable,
  type AnswerOf,
  type ApiRoute,
  type CallInput,
} from '@portico/control-contract';
import { toCsv, toJson } from './export-format';

/** What the `messages` command does, on the store the running server uses, and which store that is. */
export interface MessagesAccess extends OperatorMessages {
  /** The store read, in the operator's words (said before anything is read). */
  where: string;
  /** Every message (since `since`) as a file of `format`, audited as that export: through the control API, the server's own CSV. */
  exported(options: { since?: Date; format: 'csv' | 'json' }): Promise<string>;
  close(): Promise<void>;
}

class AccessError extends Error {}

/** How long the control API has to answer whether it is there. */
const PROBE_MS = 5000;

/** A database URL to show: its password, if it has one, left out. */
function shownUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*):[^@]*@/, '$1:***@');
}

/** The store this machine's settings name, as the command says it. */
function localStore(settings: ContactSettings): string {
  return settings.databaseUrl ? `the PostgreSQL database in DATABASE_URL (${shownUrl(settings.databaseUrl)})` : `the embedded database in ${settings.dataDir}`;
}

/** Why the control API refused, in the operator's words; undefined for a refusal the caller answers itself (no such message). */
function refusal(error: ApiRefusal, base: string, token: ControlToken, settings: ContactSettings): string | undefined {
  const { status } = error;
  if (status === 401) {
    return (
      `the server at ${base} refused the token from ${token.from} (${error.message}): it is not one of that server's tokens, so which store that server uses cannot be told, ` +
      `and ${localStore(settings)} may not be it. Set PORTICO_TOKEN to a token of that server with the messages scope`
    );
  }
  if (status === 403) return `the token from ${token.from} may not read messages (it needs the messages scope): ${error.message}`;
  if (status === 429) return `the control API: ${error.message}`;
  return undefined;
}

/** A refused listing in the operator's words. */
const refusedList = (refused: ApiRefusal) => (refused.field('error') === undefined ? `the control API answered ${refused.status}` : refused.message);

/** The running server's control API (`/api/messages`, through the commands' one control client), which audits each call under the token's name. */
function throughControlApi(client: ControlClient, token: ControlToken, settings: ContactSettings): MessagesAccess {
  const { base } = client;
  /** A call, its failures in the operator's words; a refusal the caller answers itself (no such message) comes back as it is. */
  const call = async <R extends ApiRoute, A = AnswerOf<R>>(
    route: R,
    input: CallInput<R>,
    send: () => Promise<A> = () => client.call(route, input) as Promise<A>,
  ): Promise<{ answer: A } | { refused: ApiRefusal }> => {
    try {
      return { answer: await send() };
    } catch (error) {
      if (error instanceof ControlUnreachableError) throw new AccessError(error.message);
      if (!(error instanceof ApiRefusal)) throw error;
      const refused = refusal(error, base, token, settings);
      if (refused) throw new AccessError(refused);
      return { refused: error };
    }
  };
  return {
    where: `the messages of the server at ${base}, through its control API (the token from ${token.from})`,
    async list({ since, export: format }) {
      const listed = await call(messagesRoutes.list, { query: { since: since?.toISOString(), export: format } });
      if ('refused' in listed) throw new AccessError(refusedList(listed.refused));
      return listed.answer;
    },
    async exported({ since, format }) {
      if (format === 'json') return toJson(await this.list({ since, export: 'json' }));
      const query = { query: { since: since?.toISOString(), export: format } };
      const csv = await call(messagesRoutes.list, query, () => client.text(messagesRoutes.list, query, 'text/csv'));
      if ('refused' in csv) throw new AccessError(refusedList(csv.refused));
      return csv.answer;
    },
    async get(id) {
      const found = await call(messagesRoutes.get, { params: { id } });
      return 'answer' in found ? found.answer : undefined;
    },
    async delete(id) {
      return 'answer' in (await call(messagesRoutes.delete, { params: { id } }));
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
    await apiClient({ base }).call(messagesRoutes.list, { query: {} }, { timeoutMs: PROBE_MS });
    return true;
  } catch (error) {
    if (error instanceof ApiRefusal || error instanceof ApiAnswerMismatch) return true;
    if (error instanceof ApiUnreachable && error.timedOut) {
      throw new AccessError(
        `something at ${base} accepted a connection but did not answer within ${PROBE_MS / 1000} s: whether a server runs, and which store it uses, cannot be told; set PORTICO_CONTROL_URL to its control API`,
      );
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
 * `say` is the command's own output (its user reads it, no collector).
 */
export async function openMessagesAccess(settings: ContactSettings, env: NodeJS.ProcessEnv, say?: (line: string) => void): Promise<MessagesAccess> {
  let client: ControlClient;
  try {
    client = controlClient(env, settings.dataDir);
  } catch (error) {
    if (error instanceof ControlSettingsError) throw new AccessError(error.message);
    throw error;
  }
  const { base, token } = client;
  const serverAnswers = await controlApiAnswers(base);
  if (serverAnswers && token) return throughControlApi(client, token, settings);

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

  const { store, release, tightened } = await openStore(settings);
  if (tightened > 0)
    say?.(`messages: ${settings.dataDir} was open to other users: made ${tightened} folder(s) and file(s) in it private to this user (0700/0600)`);
  const operator = store.operator(localActor());
  return {
    where: `${localStore(settings)}${serverAnswers ? '' : `; no server answers at ${base}`}`,
    ...operator,
    async exported({ since, format }) {
      const messages = await operator.list({ since, export: format });
      return format === 'csv' ? toCsv(messages) : toJson(messages);
    },
    async close() {
      await store.close();
      release();
    },
  };
}
