import { apiClient, ApiRefusal, type ApiClient } from '@portico/platform/api';
import { CONTROL_API, CSRF_HEADER, type sessionSchema } from '@portico/releases/control-contract';
import type { z } from 'zod';

export type Session = z.infer<typeof sessionSchema>;
export type Actor = Session['actor'];

/**
 * A signed-in console: who, and the typed client that calls the control API
 * on this origin with the session's anti-forgery value. The value lives in
 * this object only (memory): never in storage or a URL, so a reload signs in
 * again unless the API's `GET /api/session` hands it back.
 */
export interface ConsoleSession {
  actor: Actor;
  client: ApiClient;
  /** Fetches a text answer (a CSV export, the event stream) from a path the contract names, with the same headers. */
  fetchText(path: string, init?: { signal?: AbortSignal }): Promise<Response>;
}

/** The console calls its own origin: the control port serves both. */
const SAME_ORIGIN = '';

export function consoleSession(session: Session): ConsoleSession {
  const client = apiClient({ base: SAME_ORIGIN, csrf: session.csrf });
  return {
    actor: session.actor,
    client,
    async fetchText(path, init = {}) {
      const response = await fetch(`${SAME_ORIGIN}${path}`, { headers: { [CSRF_HEADER]: session.csrf }, credentials: 'same-origin', signal: init.signal });
      if (!response.ok) throw new ApiRefusal(response.status, await response.json().catch(() => undefined));
      return response;
    },
  };
}

/** Signs in with a token pasted once; the API sets the session cookie. */
export async function signIn(token: string): Promise<ConsoleSession> {
  const session = await apiClient({ base: SAME_ORIGIN }).call(CONTROL_API.session.create, { body: { token } });
  return consoleSession(session);
}

/** The session a reload finds (the cookie is still there), or undefined when there is none to resume. */
export async function resumeSession(): Promise<ConsoleSession | undefined> {
  try {
    return consoleSession(await apiClient({ base: SAME_ORIGIN }).call(CONTROL_API.session.show, {}));
  } catch {
    return undefined;
  }
}

/** A refusal that means the session is over (expired, signed out elsewhere): the console goes back to sign-in. */
export function isSessionOver(error: unknown): boolean {
  return error instanceof ApiRefusal && error.status === 401;
}
