import { TextDecoder, TextEncoder } from 'node:util';
import type { ConsoleEvent } from '@portico/control-contract';
import { keepSession } from '../api/console-session';

// jsdom has neither fetch nor TextDecoder; the console's code uses both in the browser.
Object.assign(globalThis, { TextDecoder, TextEncoder });

// The console keeps the reader's language on this browser: each test starts in English, as a new browser does.
beforeEach(() => localStorage.clear());

/**
 * A request the fake answered. Exported for the declaration of what
 * openSectionPage returns (TS4058), though no module names it.
 * @public
 */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

export interface Answer {
  status?: number;
  body: unknown;
  /** The answer's Content-Type: JSON unless said (an export's `text/csv; charset=utf-8`). */
  type?: string;
}

/** What the fake API answers to `METHOD /path` (the query aside): an answer, or a function of the request. */
export type Routes = Record<string, Answer | ((request: SeenRequest) => Answer)>;

/**
 * The control API at the network's edge: `fetch` answers from `routes`,
 * records each request, and keeps `GET /api/events` open for `emit`. What a
 * route does not name answers 404, as the API would.
 */
export function fakeControlApi(routes: Routes) {
  const requests: SeenRequest[] = [];
  const encoder = new TextEncoder();
  const waiting: ((chunk: { value?: Uint8Array; done: boolean }) => void)[] = [];
  const queued: Uint8Array[] = [];
  const reader = {
    read: () =>
      new Promise<{ value?: Uint8Array; done: boolean }>((resolve) => {
        const next = queued.shift();
        if (next) resolve({ value: next, done: false });
        else waiting.push(resolve);
      }),
  };
  const fetch = jest.fn(async (url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
    const parsed = new URL(url, 'http://127.0.0.1:8084');
    const request: SeenRequest = {
      method: init.method ?? 'GET',
      path: parsed.pathname,
      query: parsed.searchParams,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
      headers: init.headers ?? {},
    };
    requests.push(request);
    if (request.path === '/api/events') return { ok: true, status: 200, body: { getReader: () => reader } };
    const route = routes[`${request.method} ${request.path}`];
    const answer = typeof route === 'function' ? route(request) : (route ?? { status: 404, body: { error: `no route ${request.method} ${request.path}` } });
    const status = answer.status ?? 200;
    return {
      ok: status < 400,
      status,
      headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? (answer.type ?? 'application/json; charset=utf-8') : null) },
      json: async () => answer.body,
      blob: async () => new Blob([String(answer.body)]),
    };
  });
  Object.assign(globalThis, { fetch });
  return {
    requests,
    /** The requests to `METHOD /path`. */
    to: (route: string) => requests.filter((request) => `${request.method} ${request.path}` === route),
    /** Sends an event down the open event stream. */
    emit(event: ConsoleEvent) {
      const chunk = encoder.encode(`event: change\ndata: ${JSON.stringify(event)}\n\n`);
      const resolve = waiting.shift();
      if (resolve) resolve({ value: chunk, done: false });
      else queued.push(chunk);
    },
    /** Ends the open event stream, as a dropped connection or a restarted server would; the console opens it again. */
    dropStream() {
      waiting.shift()?.({ done: true });
    },
  };
}

const NOW = '2026-11-26T10:00:00.000Z';

export const session = (scopes: string[], name = 'ana') => ({
  status: 201,
  body: {
    actor: { name, scopes, ...(scopes[0]?.startsWith('section:') ? { section: scopes[0].slice(8) } : {}) },
    csrf: 'csrf-value-1',
    idleExpiresAt: NOW,
    expiresAt: NOW,
  },
});

export const release = (id: string, state: string, extra: Record<string, unknown> = {}) => ({
  id,
  section: id.split('-')[0],
  manifestUrl: `http://localhost:32100/${id}/mf-manifest.json`,
  integrity: 'sha384-x',
  version: '1.0.0',
  buildId: `build-${id}`,
  createdAt: NOW,
  createdBy: 'ana',
  note: null,
  state,
  ...extra,
});

const health = { visits: 120, failures: 3, failureRate: 0.025, failuresByClass: {}, lcpP75: 2363, inpP75: 149, clsP75: 0.05 };

export const sectionStatus = (active: ReturnType<typeof release> | null, extra: Record<string, unknown> = {}) => ({
  active,
  previous: null,
  since: active ? NOW : null,
  by: active ? 'ana' : null,
  health: active ? { [active.id]: health } : {},
  ...extra,
});

/** A section's entry as `GET /api/sections` shows it beside its status (sections as data): an added one unless `extra` says otherwise. */
export const sectionEntry = (labels: { en: string; id: string }, order: number | null, extra: Record<string, unknown> = {}) => ({
  labels,
  origins: [],
  order,
  markets: ['IN', 'ID'],
  hidden: false,
  builtIn: false,
  interactive: false,
  ...extra,
});

/** A section's entry as an add, a change or a retirement answers it (`section` and `id` both its id). */
export const answeredEntry = (id: string, labels: { en: string; id: string }, order: number | null, extra: Record<string, unknown> = {}) => ({
  section: id,
  id,
  ...sectionEntry(labels, order, extra),
});

/** This tab signed in before (a reload): it holds the session's value, so the console resumes with `GET /api/session`. */
export function signedInBefore(csrf = 'csrf-value-1'): void {
  keepSession(csrf);
}

/** A signed-out console: no session to resume. */
export const NO_SESSION: Answer = { status: 401, body: { error: 'no session' } };
