import { z } from 'zod';
import { apiClient, ApiRefusal, ApiUnreachable, CSRF_HEADER } from '../api-client';
import { apiRoute } from '../api-route';

// The control API's one client, at the network's edge: `fetch` is the
// browser's and Node's alike, so a fake one sees exactly what either would
// send. What the console reads as a stream or a file (the event stream, an
// export) goes through the same client as every call, with the same headers.

interface Sent {
  url: string;
  init: RequestInit;
}

function fakeFetch(answer: () => Response | Promise<Response>): Sent[] {
  const sent: Sent[] = [];
  globalThis.fetch = jest.fn(async (url: string | URL | Request, init: RequestInit = {}) => {
    sent.push({ url: String(url), init });
    if (init.signal?.aborted) throw init.signal.reason;
    return answer();
  });
  return sent;
}

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('open: a path whose answer is read as it comes', () => {
  it('sends the session’s anti-forgery value and the filters given, leaving out the empty ones', async () => {
    const sent = fakeFetch(() => new Response('id,at\n', { headers: { 'Content-Type': 'text/csv' } }));
    const response = await apiClient({ base: '', csrf: 'the-csrf' }).open('/api/audit.csv', { section: 'home', action: undefined });
    expect(await response.text()).toBe('id,at\n');
    expect(sent).toEqual([
      {
        url: '/api/audit.csv?section=home',
        init: expect.objectContaining({ method: 'GET', credentials: 'same-origin', headers: { [CSRF_HEADER]: 'the-csrf' } }),
      },
    ]);
  });

  it('sends a command’s bearer token the same way as a call does', async () => {
    const sent = fakeFetch(() => new Response(''));
    await apiClient({ base: 'http://127.0.0.1:8084', token: 'the-token' }).open('/api/events');
    expect(sent[0]).toEqual({ url: 'http://127.0.0.1:8084/api/events', init: expect.objectContaining({ headers: { Authorization: 'Bearer the-token' } }) });
  });

  it('answers a refusal as ApiRefusal, with the API’s words', async () => {
    fakeFetch(() => json(401, { error: 'the console session has ended: sign in again' }));
    const refused = apiClient({ base: '' }).open('/api/events');
    await expect(refused).rejects.toBeInstanceOf(ApiRefusal);
    await expect(refused).rejects.toMatchObject({ status: 401, message: 'the console session has ended: sign in again' });
  });

  it('leaves an abort the caller asked for as it is, and calls no answer at all ApiUnreachable', async () => {
    fakeFetch(() => new Response(''));
    const abort = new AbortController();
    abort.abort(new Error('the screen closed'));
    await expect(apiClient({ base: '' }).open('/api/events', {}, { signal: abort.signal })).rejects.toThrow('the screen closed');

    fakeFetch(() => Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') })));
    await expect(apiClient({ base: 'http://127.0.0.1:1' }).open('/api/events')).rejects.toBeInstanceOf(ApiUnreachable);
  });
});

describe('call: a declared route', () => {
  const status = apiRoute({
    method: 'POST',
    path: '/api/things/:id',
    params: z.object({ id: z.string() }),
    body: z.object({ note: z.string() }),
    answer: z.object({ ok: z.literal(true) }),
  });

  it('fills the path, sends the body as JSON and reads the answer by the route’s schema', async () => {
    const sent = fakeFetch(() => json(200, { ok: true }));
    await expect(apiClient({ base: '', token: 't' }).call(status, { params: { id: 'a b' }, body: { note: 'hi' } })).resolves.toEqual({ ok: true });
    expect(sent[0]).toEqual({
      url: '/api/things/a%20b',
      init: expect.objectContaining({ method: 'POST', body: '{"note":"hi"}', headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' } }),
    });
  });
});
