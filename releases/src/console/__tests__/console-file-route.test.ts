import Fastify from 'fastify';
import type { Answer } from '@portico/platform/http';
import { consoleFileRoute, type ConsoleFiles } from '../console-files';

// The console's files are a route of their own (issue 47 item 2), answered
// through Fastify as every route is, not written by hand from the control
// API's not-found handler. No socket is the point here: Fastify's inject.

const PAGE: Answer = {
  status: 200,
  headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'self'" },
  body: Buffer.from('<!doctype html>'),
};

async function appWith(files: ConsoleFiles) {
  const app = Fastify({ exposeHeadRoutes: false });
  const routeOf: string[] = [];
  app.addHook('onRequest', async (request) => {
    routeOf.push(`${request.routeOptions.url ?? 'none'} ${String(request.routeOptions.config.consoleFiles ?? false)}`);
  });
  await app.register(consoleFileRoute, { files });
  return { app, routeOf };
}

it("answers a console page by its own route, marked as the console's files, with every answer's headers beside the page's", async () => {
  const { app, routeOf } = await appWith(() => Promise.resolve(PAGE));
  const answer = await app.inject({ method: 'GET', url: '/sections/contact' });
  expect(answer.statusCode).toBe(200);
  expect(answer.body).toBe('<!doctype html>');
  expect(answer.headers['content-security-policy']).toBe("default-src 'self'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(routeOf).toEqual(['/* true']);
  expect((await app.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
  await app.close();
});

it('answers a path with no file a plain 404, and a file that fails to read the same, logged', async () => {
  const { app } = await appWith(() => Promise.resolve(undefined));
  const missing = await app.inject({ method: 'GET', url: '/main.0123456789.js' });
  expect(missing.statusCode).toBe(404);
  expect(missing.headers['content-type']).toMatch(/^text\/plain/);
  expect(missing.body).toBe('Not found\n');
  await app.close();

  const failing = await appWith(() => Promise.reject(new Error('EIO: the disk failed')));
  const answer = await failing.app.inject({ method: 'GET', url: '/' });
  expect(answer.statusCode).toBe(404);
  expect(answer.body).toBe('Not found\n');
  await failing.app.close();
});

it('takes no other method: a POST is no route of its', async () => {
  const { app, routeOf } = await appWith(() => Promise.resolve(PAGE));
  expect((await app.inject({ method: 'POST', url: '/' })).statusCode).toBe(404);
  expect(routeOf).toEqual(['none false']);
  await app.close();
});
