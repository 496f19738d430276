// jsdom: the clients read the page's own URL when no query string is given.
import type { AxiosAdapter, AxiosInstance } from 'axios';
import { createFormClient } from '../create-form-client';
import { createJsonClient } from '../create-json-client';

// Stands in for the network only; everything up to the wire is the client's own.
function captureHeaders(client: Pick<AxiosInstance, 'defaults'>): () => Record<string, unknown> {
  let sent: Record<string, unknown> = {};
  const adapter: AxiosAdapter = async (config) => {
    sent = config.headers.toJSON();
    return { data: {}, status: 200, statusText: 'OK', headers: {}, config };
  };
  client.defaults.adapter = adapter;
  return () => sent;
}

afterEach(() => window.history.replaceState(null, '', '/'));

test('the JSON client copies token and channel from window.location.search, as it is at each request', async () => {
  const client = createJsonClient();
  const sent = captureHeaders(client);

  window.history.replaceState(null, '', '/?token=t-1&channel=web');
  await client.get('/anything');
  expect(sent()).toMatchObject({ 'X-App-Token': 't-1', 'X-App-Channel': 'web' });

  window.history.replaceState(null, '', '/?token=t-2');
  await client.get('/anything');
  expect(sent()).toMatchObject({ 'X-App-Token': 't-2' });
  expect(sent()).not.toHaveProperty('X-App-Channel');
});

test('the form client copies version and deviceId from window.location.search', async () => {
  window.history.replaceState(null, '', '/?version=3.1&deviceId=abc&token=not-mine');
  const client = createFormClient();
  const sent = captureHeaders(client);

  await client.post('/anything', { a: 1 });

  expect(sent()).toMatchObject({ 'X-App-Version': '3.1', 'X-Device-Id': 'abc' });
  expect(sent()).not.toHaveProperty('X-App-Token');
});
