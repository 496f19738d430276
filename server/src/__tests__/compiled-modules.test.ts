import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { builtServer } from '@portico/testing/built-apps';

// What loading the compiled server (`npm run serve`'s server/dist/main.js)
// requires: none of what a start on the embedded database does not use
// (issue 47, each 50-200 ms of the start). Module Federation's runtime: the
// manifest check's `satisfy` is bundled from the runtime's own semver module
// (compile/compile-server.ts). Fastify's JSON-schema compilers: the apps
// compile zod's (zodSchemaController). Required on first use, each path
// tested where it is used: nodemailer (platform's notices.test.ts,
// messages' mail.test.ts), pg and PGlite (platform's database.test.ts, each
// kind), parse5 (contact-form.test.ts, section-html.test.ts).

jest.setTimeout(120_000);

test('loading the compiled server loads neither Module Federation’s runtime nor what is required on first use', () => {
  builtServer();
  const script = `require(${JSON.stringify(path.resolve(__dirname, '../../dist/main.js'))});
    process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const loaded = (JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[]).map((file) =>
    file.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1'),
  );
  expect(loaded).toContain('fastify');
  for (const unused of [
    '@module-federation/enhanced',
    '@module-federation/runtime',
    '@module-federation/runtime-core',
    '@fastify/ajv-compiler',
    '@fastify/fast-json-stringify-compiler',
    'nodemailer',
    'parse5',
    'pg',
    '@electric-sql/pglite',
  ])
    expect(loaded).not.toContain(unused);
});
