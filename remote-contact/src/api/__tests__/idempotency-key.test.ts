import { newIdempotencyKey, type RandomSource } from '../idempotency-key';

const SERVER_KEY = /^[A-Za-z0-9_-]{8,100}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('uses crypto.randomUUID where the page has it', () => {
  const key = newIdempotencyKey();
  expect(key).toMatch(UUID_V4);
  expect(key).toMatch(SERVER_KEY);
});

test('without randomUUID (a page on http://192.168.x.y) it writes a version-4 UUID from getRandomValues', () => {
  const insecure: RandomSource = { getRandomValues: (array) => crypto.getRandomValues(array) };
  const keys = Array.from({ length: 200 }, () => newIdempotencyKey(insecure));
  for (const key of keys) {
    expect(key).toMatch(UUID_V4);
    expect(key).toMatch(SERVER_KEY);
  }
  expect(new Set(keys).size).toBe(keys.length);
});
