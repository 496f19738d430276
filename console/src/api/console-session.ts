import { apiClient, ApiRefusal, type ApiClient, CONTROL_API, type sessionSchema } from '@portico/control-contract';
import type { z } from 'zod';

type Session = z.infer<typeof sessionSchema>;
export type Actor = Session['actor'];

/**
 * A signed-in console: who, and the control API's one client, calling this
 * origin with the session's anti-forgery value. The value is kept
 * in this tab's sessionStorage of the console's origin (never localStorage,
 * a URL or a cookie): storage, unlike a cookie, is per origin, port
 * included, so a page on another port of this host cannot plant one. The
 * API asks for the value with every request, "who am I" included: a cookie
 * the console's own sign-in did not hand to this tab signs nothing in.
 */
export interface ConsoleSession {
  actor: Actor;
  /** Every call, the event stream and the exports included (its `open`). */
  client: ApiClient;
}

/** The console calls its own origin: the control port serves both. */
const SAME_ORIGIN = '';

function consoleSession(session: Session): ConsoleSession {
  return { actor: session.actor, client: apiClient({ base: SAME_ORIGIN, csrf: session.csrf }) };
}

/** Where this tab keeps its session's anti-forgery value. */
const CSRF_KEY = 'portico-console-csrf';

/** This tab's storage, or none where the browser refuses it (then a reload signs in again). */
function tabStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** This tab keeps its sign-in's anti-forgery value, for a reload to resume with. */
export function keepSession(csrf: string): void {
  tabStorage()?.setItem(CSRF_KEY, csrf);
}

/** Signs in with a token pasted once; the API sets the session cookie, and this tab keeps the session's anti-forgery value. */
export async function signIn(token: string): Promise<ConsoleSession> {
  const session = await apiClient({ base: SAME_ORIGIN }).call(CONTROL_API.session.create, { body: { token } });
  keepSession(session.csrf);
  return consoleSession(session);
}

/**
 * The session a reload finds: this tab's own sign-in (its anti-forgery
 * value stored) whose cookie is still live; undefined when there is none.
 * A cookie alone is asked nothing: it may be one another page planted.
 */
export async function resumeSession(): Promise<ConsoleSession | undefined> {
  const csrf = tabStorage()?.getItem(CSRF_KEY);
  if (!csrf) return undefined;
  try {
    return consoleSession(await apiClient({ base: SAME_ORIGIN, csrf }).call(CONTROL_API.session.show, {}));
  } catch {
    forgetSession();
    return undefined;
  }
}

/** The session is over (signed out, expired): this tab forgets its anti-forgery value. */
export function forgetSession(): void {
  tabStorage()?.removeItem(CSRF_KEY);
}

/** A refusal that means the session is over (expired, signed out elsewhere): the console goes back to sign-in. */
export function isSessionOver(error: unknown): boolean {
  return error instanceof ApiRefusal && error.status === 401;
}
