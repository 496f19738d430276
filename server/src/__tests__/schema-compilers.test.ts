import { silentLogger } from '@portico/platform/logging';
import { DEFAULT_CLIENT_LIMITS } from '../client-limits';
import { appServer } from '../http/app-server';

// A page port's app is made with the zod compilers (zodSchemaController):
// Fastify's own JSON-schema compilers (Ajv, fast-json-stringify), which it
// loads as an app is made and no route of ours uses, took 0.3-0.7 s of every
// server start (issue 47).

const loaded: string[] = [];
jest.mock('@fastify/ajv-compiler', () => {
  loaded.push('@fastify/ajv-compiler');
  return jest.requireActual('@fastify/ajv-compiler');
});
jest.mock('@fastify/fast-json-stringify-compiler', () => {
  loaded.push('@fastify/fast-json-stringify-compiler');
  return jest.requireActual('@fastify/fast-json-stringify-compiler');
});

test('a page port is made and answers without Fastify’s JSON-schema compilers', async () => {
  const served = appServer({ hosts: [{ hostname: 'localhost', port: 8080 }], trustProxy: false, limits: DEFAULT_CLIENT_LIMITS, log: silentLogger });
  served.app.get('/', (_request, reply) => reply.send('fine'));
  const answer = await served.app.inject({ url: '/', headers: { host: 'localhost:8080' } });
  expect([answer.statusCode, answer.body]).toEqual([200, 'fine']);
  expect(answer.body).toBe('fine');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(loaded).toEqual([]);
  await served.app.close();
});
