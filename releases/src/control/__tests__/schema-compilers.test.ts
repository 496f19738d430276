import { controlApiOnTestStore, type ControlApiOnTestStore } from './control-api-on-test-store';

// The control API validates requests with zod (zodSchemaController): Fastify's
// own JSON-schema compilers (Ajv, fast-json-stringify) are never loaded, which
// took 0.3-0.7 s of every server start (issue 47), and a bad request is still
// refused in the API's words.

const loaded: string[] = [];
jest.mock('@fastify/ajv-compiler', () => {
  loaded.push('@fastify/ajv-compiler');
  return jest.requireActual('@fastify/ajv-compiler');
});
jest.mock('@fastify/fast-json-stringify-compiler', () => {
  loaded.push('@fastify/fast-json-stringify-compiler');
  return jest.requireActual('@fastify/fast-json-stringify-compiler');
});

const OWNER = 'the-owner-token-of-this-test';
let api: ControlApiOnTestStore;

beforeAll(async () => {
  api = await controlApiOnTestStore('schema-compilers', { owner: OWNER, publishChecks: () => Promise.reject(new Error('not called')) });
});
afterAll(() => api.close());

test('the control API is made without Fastify’s JSON-schema compilers', () => {
  expect(loaded).toEqual([]);
});

test('a body its route’s schema refuses is still a 400 naming the field', async () => {
  const answer = await api.call('POST', '/api/sections/home/active', OWNER, { release: 42 });
  expect(answer.status).toBe(400);
  expect(answer.body.field).toBe('release');
});
