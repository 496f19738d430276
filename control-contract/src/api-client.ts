import type { z } from 'zod';
import type { AnswerOf, ApiRoute } from './api-route';

/** The API answered with a refusal (any status but 2xx): its status and its JSON body (`{ error, …}`), or undefined when it sent none. */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(refusalText(status, body));
  }

  /** A field of the refusal's body (`field`, `checks`), if it is an object. */
  field(name: string): unknown {
    return typeof this.body === 'object' && this.body !== null ? (this.body as Record<string, unknown>)[name] : undefined;
  }
}

function refusalText(status: number, body: unknown): string {
  const error = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).error : undefined;
  return typeof error === 'string' ? error : `answered ${status}`;
}

/** No HTTP answer at all: nothing listens, or the connection failed or timed out. `reason` says what happened. */
export class ApiUnreachable extends Error {
  constructor(
    readonly base: string,
    readonly reason: string,
    readonly timedOut: boolean,
  ) {
    super(`${base} does not answer (${reason})`);
  }
}

/** A success answer that is not what the route declares (a server of another version): `problem` names the first difference. */
export class ApiAnswerMismatch extends Error {}

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
type Part<R extends ApiRoute, K extends 'params' | 'query' | 'body'> = R[K] extends z.ZodType ? { [P in K]: InputOf<R[K]> } : { [P in K]?: never };
/** What a call of `route` takes: its path parameters, query and body, each as its schema's input. */
export type CallInput<R extends ApiRoute> = Part<R, 'params'> & Part<R, 'query'> & Part<R, 'body'>;

/** The header that carries a console session's anti-forgery value: the session cookie counts only with it. */
export const CSRF_HEADER = 'X-Portico-CSRF';

export interface ApiClientOptions {
  /** `http://127.0.0.1:8084`, no trailing slash; `''` in the console, which calls its own origin. */
  base: string;
  /** Sent as `Authorization: Bearer <token>`; none: the request carries no token. */
  token?: string;
  /** A console session's anti-forgery value (the sign-in's `csrf`), sent as CSRF_HEADER; the browser sends the session cookie itself. */
  csrf?: string;
}

export interface CallOptions {
  /** Gives up after this long (ApiUnreachable with `timedOut`). */
  timeoutMs?: number;
}

export interface ApiClient {
  readonly base: string;
  /** Calls `route`: its answer parsed by the route's schema, else ApiRefusal, ApiUnreachable or ApiAnswerMismatch. */
  call<R extends ApiRoute>(route: R, input: CallInput<R>, options?: CallOptions): Promise<AnswerOf<R>>;
  /**
   * Calls `route` for a file rather than JSON (an export: `export=csv`): the
   * answer's text, else ApiRefusal, ApiUnreachable, or ApiAnswerMismatch when
   * the answer is not of `mediaType` (a server that answered JSON instead).
   */
  text<R extends ApiRoute>(route: R, input: CallInput<R>, mediaType: string, options?: CallOptions): Promise<string>;
  /**
   * GETs a path of the API whose answer is no JSON the contract declares (the
   * event stream, `/api/audit.csv`): the answer as it comes, for its body to be
   * read as a stream or a file; a refusal is ApiRefusal, no answer ApiUnreachable.
   */
  open(path: string, query?: Readonly<Record<string, string | undefined>>, options?: OpenOptions): Promise<Response>;
}

interface OpenOptions {
  /** Ends the request (and a stream being read) when it aborts: a stream has no time limit of its own. */
  signal?: AbortSignal;
}

/** `/api/sections/:section/active` with `section` filled in, each parameter percent-encoded. */
export function pathOf(route: Pick<ApiRoute, 'path'>, params: Record<string, string> = {}): string {
  return route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.path}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}

function queryOf(query: Record<string, unknown> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
  return search.size > 0 ? `?${search}` : '';
}

/**
 * A client of an API declared with apiRoute: the one place that builds its
 * URLs, sends the bearer token and reads the answers, each checked against
 * the route's answer schema, so a caller gets typed values and never casts.
 */
export function apiClient(options: ApiClientOptions): ApiClient {
  const { base, token, csrf } = options;
  /** The one place a request is made: the URL, the token or the session's anti-forgery value, the body as JSON. */
  const request = async (
    method: ApiRoute['method'],
    path: string,
    query: Record<string, unknown> | undefined,
    body: unknown,
    callOptions: CallOptions & OpenOptions,
  ) => {
    const url = `${base}${path}${queryOf(query)}`;
    try {
      return await fetch(url, {
        method,
        headers: {
          ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
          ...(csrf === undefined ? {} : { [CSRF_HEADER]: csrf }),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        // The console's session cookie goes to its own origin only.
        credentials: 'same-origin',
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: callOptions.signal ?? (callOptions.timeoutMs === undefined ? undefined : AbortSignal.timeout(callOptions.timeoutMs)),
      });
    } catch (error) {
      // An abort the caller asked for is theirs to see as it is, not as an API away.
      if (callOptions.signal?.aborted) throw error;
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new ApiUnreachable(base, (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message, timedOut);
    }
  };
  const send = (route: ApiRoute, input: unknown, callOptions: CallOptions): Promise<Response> => {
    const { params, query, body } = input as { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
    return request(route.method, pathOf(route, params), query, body, callOptions);
  };
  return {
    base,
    async call(route, input, callOptions = {}) {
      const response = await send(route, input, callOptions);
      const json: unknown = await response.json().catch(() => undefined);
      if (!response.ok) throw new ApiRefusal(response.status, json);
      const parsed = route.answer.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new ApiAnswerMismatch(
          `${route.method} ${route.path} answered ${response.status} with something else than expected (${issue.path.join('.') || 'the answer'}: ${issue.message})`,
        );
      }
      return parsed.data as AnswerOf<typeof route>;
    },
    async text(route, input, mediaType, callOptions = {}) {
      const response = await send(route, input, callOptions);
      if (!response.ok) throw new ApiRefusal(response.status, await response.json().catch(() => undefined));
      const type = response.headers.get('content-type') ?? 'nothing';
      if (type.split(';')[0]!.trim().toLowerCase() !== mediaType) {
        await response.body?.cancel();
        throw new ApiAnswerMismatch(`${route.method} ${route.path} answered ${response.status} with ${type}, not ${mediaType}`);
      }
      return response.text();
    },
    async open(path, query, openOptions = {}) {
      const response = await request('GET', path, query, undefined, openOptions);
      if (!response.ok) throw new ApiRefusal(response.status, await response.json().catch(() => undefined));
      return response;
    },
  };
}
