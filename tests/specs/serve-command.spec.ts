import { createServer } from 'node:net';
import { expect, test } from '../support/fixtures';
import { runServe, waitForOutput } from '../support/run-cli';

// Both tests use ports 9000-9003, so they run one after the other.
test.describe.configure({ mode: 'serial' });

test('PORT=9000 moves the host to 9000 and the remotes to 9001-9003; SIGTERM stops it cleanly', async ({ page }) => {
  const serve = runServe({ PORT: '9000' });
  try {
    await waitForOutput(serve, 'Portico is serving at http://localhost:9000');
    const config = (await (await fetch('http://localhost:9000/config.json')).json()) as { remotes: Record<string, string> };
    expect(config.remotes).toEqual({
      home: 'http://localhost:9001/mf-manifest.json',
      about: 'http://localhost:9002/mf-manifest.json',
      contact: 'http://localhost:9003/mf-manifest.json',
    });
    for (const url of Object.values(config.remotes)) {
      const manifest = (await (await fetch(url)).json()) as { exposes: { path: string }[] };
      expect(manifest.exposes.map((expose) => expose.path)).toEqual(['./section']);
    }
    await page.goto('http://localhost:9000/#about');
    await expect(page.getByRole('tabpanel', { name: 'About Us' })).toContainText('offers short-term personal loans');
  } finally {
    serve.child.kill('SIGTERM');
  }
  expect(await serve.exited).toBe(0);
});

test('a port already taken stops the server with the reason and a non-zero exit', async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(9002, resolve));
  try {
    const serve = runServe({ PORT: '9000' });
    expect(await serve.exited).toBe(1);
    expect(serve.output()).toContain('port 9002 (about) is already in use');
  } finally {
    blocker.close();
  }
});
