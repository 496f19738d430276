// The operator console at 1280 px, each screen an integrator sees (English)
// and the overview in Indonesian, into docs/console/ for docs/console.md,
// against `npm run serve` of the production build (`npm run build` first)
// with a release of each section and a stored message. For people to look
// at, not to compare by machine.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { consoleOrigin } from './support/console';
import { writeConfig } from './support/fixtures';
import { REPO_ROOT } from './support/paths';
import { runRelease, runServe, waitForOutput } from './support/run-cli';

const OUT = path.join(REPO_ROOT, 'docs/console');
const PORT = Number(process.env.PORT ?? 8760);
const TOKEN = 'the-screenshots-integrator-token';

async function main() {
  mkdirSync(OUT, { recursive: true });
  const serve = runServe({ PORT: String(PORT), PORTICO_CONFIG: writeConfig(PORT), PORTICO_CONTROL_TOKEN: TOKEN });
  const release = async (...args: string[]) => runRelease(args, { port: PORT, token: TOKEN });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await waitForOutput(serve);
    for (const [section, offset] of [
      ['home', 1],
      ['about', 2],
      ['contact', 3],
    ] as const) {
      const id = /[a-z]+-\d+/.exec(await release('publish', section, `http://localhost:${PORT + offset}/mf-manifest.json`, '--note', 'first release'))![0];
      await release('activate', section, id);
    }
    await release('token', 'create', 'home-team', '--section', 'home');
    await fetch(`http://localhost:${PORT}/api/contact`, {
      method: 'POST',
      headers: { Origin: `http://localhost:${PORT}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Dewi Lestari',
        telephone: '+62 812 5555 0101',
        message: 'Berapa bunga pinjaman 6 bulan?',
        language: 'id',
        idempotencyKey: 'screenshots-0001',
        website: '',
      }),
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${consoleOrigin(PORT)}/`);
    await page.screenshot({ path: path.join(OUT, 'sign-in.png') });
    await page.getByRole('textbox', { name: 'Token' }).fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    for (const [name, route] of [
      ['overview', ''],
      ['section', '/sections/contact'],
      ['audit', '/audit'],
      ['tokens', '/tokens'],
      ['alerts', '/alerts'],
      ['inbox', '/inbox'],
    ] as const) {
      await page.goto(`${consoleOrigin(PORT)}/#${route}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true });
    }
    await page.goto(`${consoleOrigin(PORT)}/#`);
    await page.getByRole('button', { name: 'Bahasa Indonesia' }).click();
    await page.getByRole('heading', { name: 'Ringkasan' }).waitFor();
    await page.screenshot({ path: path.join(OUT, 'overview-id.png'), fullPage: true });
  } finally {
    await browser.close();
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
