/**
 * A stand-in for the network under `fetch`, answering `POST /api/contact` as
 * the contract in the README says the server does. The form and its client
 * run for real above it; only what comes back over the wire is scripted.
 */

/** One scripted answer: a status with JSON (or another type), a dropped connection, or none at all. */
export type Answer =
  | { status: number; body?: unknown; contentType?: string; headers?: Record<string, string>; delayMs?: number }
  | { networkError: true; delayMs?: number }
  | { hang: true };

interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export const stored = (id = 'msg-1', delayMs = 0): Answer => ({ status: 201, body: { id }, delayMs });

interface FakeResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

function respond(answer: Extract<Answer, { status: number }>): FakeResponse {
  const headers = new Map<string, string>(
    Object.entries({ 'content-type': answer.contentType ?? 'application/json; charset=utf-8', ...answer.headers }).map(([name, value]) => [
      name.toLowerCase(),
      value,
    ]),
  );
  const text = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? '' : JSON.stringify(answer.body);
  return { status: answer.status, headers: { get: (name) => headers.get(name.toLowerCase()) ?? null }, text: async () => text };
}

function abortError(): Error {
  return Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
}

/**
 * Installs the fake as the global `fetch` for this test (jsdom has none) and
 * answers each request with the next scripted answer; the last one repeats.
 */
export function fakeContactServer(...answers: Answer[]) {
  const requests: SentRequest[] = [];
  const script = [...answers];
  const fetch = (url: string, init: RequestInit = {}): Promise<FakeResponse> => {
    requests.push({
      url,
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: JSON.parse(String(init.body)) as Record<string, unknown>,
    });
    const answer = script.length > 1 ? script.shift()! : script[0]!;
    return new Promise((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(abortError()));
      if ('hang' in answer) return;
      const settle = () => ('networkError' in answer ? reject(new TypeError('Failed to fetch')) : resolve(respond(answer)));
      if (answer.delayMs) setTimeout(settle, answer.delayMs);
      else settle();
    });
  };
  Object.defineProperty(globalThis, 'fetch', { value: fetch, configurable: true, writable: true });
  return { requests };
}

/** Removes the fake, so no test leaks its network into the next. */
export function removeFakeContactServer(): void {
  delete (globalThis as { fetch?: unknown }).fetch;
}
