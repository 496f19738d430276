import { createServer } from 'node:net';
import { expect, test, workerPorts } from '../support/fixtures';
import { runServe, waitForOutput } from '../support/run-cli';

// On this worker's port slot 6 (not a fixed 9000, which anything else on the
// machine may hold): PORT=n moves the host to n and the remotes to n+1..n+3.

test('PORT moves the host to that port and the remotes to the next three; SIGTERM stops it cleanly', async ({ page }, testInfo) => {
  const port = workerPorts(testInfo.parallelIndex, 6);
  const serve = runServe({ PORT: String(port) });
  try {
    await waitForOutput(serve, `Portico is serving at http://localhost:${port}`);
    const config = (await (await fetch(`http://localhost:${port}/config.json`)).json()) as { remotes: Record<string, string> };
    expect(config.remotes).toEqual({
      home: `http://localhost:${port + 1}/mf-manifest.json`,
      about: `http://localhost:${port + 2}/mf-manifest.json`,
      contact: `http://localhost:${port + 3}/mf-manifest.json`,
    });
    for (const url of Object.values(config.remotes)) {
      const manifest = (await (await fetch(url)).json()) as { exposes: { path: string }[] };
      expect(manifest.exposes.map((expose) => expose.path)).toEqual(['./section']);
    }
    await page.goto(`http://localhost:${port}/#about`);
    await expect(page.getByRole('tabpanel', { name: 'About Us' })).toContainText('offers short-term personal loans');
  } finally {
    serve.child.kill('SIGTERM');
  }
  expect(await serve.exited).toBe(0);
});

// eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring
test('a port already taken stops the server with the reason and a non-zero exit', async ({}, testInfo) => {
  const port = workerPorts(testInfo.parallelIndex, 6);
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(port + 2, resolve));
  try {
    const serve = runServe({ PORT: String(port) });
    expect(await serve.exited).toBe(1);
    expect(serve.output()).toContain(`port ${port + 2} (about) is already in use`);
  } finally {
    blocker.close();
  }
});
