import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, workerPorts } from '../support/fixtures';
import { expectHydrated, installClock, stopClock } from '../support/page-clock';
import { runServe, waitForOutput, type ServeProcess } from '../support/run-cli';

/**
 * The contact form against the real endpoint: `npm run serve`'s own program
 * with its embedded message store, delivering to a webhook on loopback. The
 * answers the form cannot get from a healthy server (timeouts, 503, 429) are
 * scripted in contact-form.spec.ts; here nothing is faked.
 */

interface Webhook {
  url: string;
  bodies: string[];
  close(): Promise<void>;
}

async function startWebhook(): Promise<Webhook> {
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/contact`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let webhook: Webhook;
let serve: ServeProcess;
let site: string;
let control: string;
const CONTROL_TOKEN = 'contact-delivery-spec-token';

// One server for the file: its tests run in order in one worker (a failure does not skip the ones after it, as
// `serial` would); run in parallel, each worker's share of them started a server and a database of its own.
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  webhook = await startWebhook();
  const port = workerPorts(test.info().parallelIndex, 14);
  serve = runServe({
    PORT: String(port),
    PORTICO_CONTACT_RATE_LIMIT: '0',
    PORTICO_WEBHOOK_URL: webhook.url,
    PORTICO_WEBHOOK_SECRET: 'browser-test-secret',
    PORTICO_CONTROL_TOKEN: CONTROL_TOKEN,
  });
  await waitForOutput(serve);
  site = `http://localhost:${port}`;
  control = `http://127.0.0.1:${port + 4}`;
});

test.afterAll(async () => {
  serve.child.kill('SIGTERM');
  await serve.exited;
  await webhook.close();
});

/** The delivery state of each stored message called `name`, as the lender's inbox shows it. */
async function deliveryOf(name: string): Promise<string[]> {
  const answer = await fetch(`${control}/api/messages`, { headers: { Authorization: `Bearer ${CONTROL_TOKEN}` } });
  const messages = (await answer.json()) as { name: string; delivery: { status: string } }[];
  return messages.filter((message) => message.name === name).map((message) => message.delivery.status);
}

/**
 * The webhook calls carrying `name`, once the store has marked its message
 * delivered: a delivery is marked only after the webhook took it, and a
 * delivered message is never claimed again, so no second call can follow.
 */
async function deliveredFor(name: string): Promise<number> {
  await expect.poll(() => deliveryOf(name), { timeout: 10_000 }).toEqual(['delivered']);
  return webhook.bodies.filter((body) => body.includes(name)).length;
}

test('a message is stored, then acknowledged, then delivered once, with no CSP violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') violations.push(message.text());
  });
  await installClock(page);
  await page.goto(`${site}/#contact`);
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await contact.getByLabel('Name').fill('Asha Real-Endpoint');
  await contact.getByLabel('Telephone').fill('+91 98765 43210');
  await contact.getByLabel('Message').fill('Please call me about a loan.');
  // Stopped, so the 1 s toast is there for as long as its check takes.
  await stopClock(page, contact.getByRole('button', { name: 'Send message' }));
  await contact.getByRole('button', { name: 'Send message' }).click();

  await expect(page.getByRole('status')).toHaveText('Submit successfully！');
  expect(await deliveredFor('Asha Real-Endpoint')).toBe(1);
  expect(violations).toEqual([]);
});

test('sent, then switched to Indonesian: the form is empty, and Send again stores nothing: exactly one message', async ({ page }) => {
  const stored: number[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/contact') stored.push(response.status());
  });
  await page.goto(`${site}/#contact`);
  const contact = page.getByRole('tabpanel', { name: 'Contact us' });
  await expectHydrated(contact.getByRole('button', { name: 'Send message' }));
  await contact.getByLabel('Name').fill('Asha Sent-Then-Switched');
  await contact.getByLabel('Telephone').fill('+91 98765 43210');
  await contact.getByLabel('Message').fill('Please call me about a loan.');
  await contact.getByRole('button', { name: 'Send message' }).click();
  await expect(contact.getByText(/^Thank you, Asha Sent-Then-Switched\./)).toBeVisible();
  await expect(contact.getByLabel('Message')).toHaveValue('');

  await page.getByRole('group', { name: 'Language' }).getByRole('link', { name: 'Bahasa Indonesia' }).click();
  const hubungi = page.getByRole('tabpanel', { name: 'Hubungi Kami' });
  const send = hubungi.getByRole('button', { name: 'Kirim pesan' });
  await expectHydrated(send);
  for (const field of ['Nama', 'Nomor telepon', 'Pesan']) await expect(hubungi.getByLabel(field)).toHaveValue('');
  await send.click();
  // Nothing to send: each field is marked as missing, lastingly.
  await expect(hubungi.getByLabel('Pesan')).toHaveAttribute('aria-invalid', 'true');

  expect(await deliveredFor('Asha Sent-Then-Switched')).toBe(1);
  expect(stored).toEqual([201]);
});

test('in Indonesian, an answer lost on the way keeps the text; Coba lagi resends the same message, stored and delivered once', async ({ page }) => {
  let lost = false;
  // The request reaches the server and is stored; its answer never reaches the page.
  await page.route('**/api/contact', async (route) => {
    if (lost) return route.continue();
    lost = true;
    await route.fetch();
    await route.abort('connectionreset');
  });
  await installClock(page);
  await page.goto(`${site}/?type=2#contact`);
  const contact = page.getByRole('tabpanel', { name: 'Hubungi Kami' });
  await contact.getByLabel('Nama').fill('Budi Sekali-Saja');
  await contact.getByLabel('Nomor telepon').fill('0812 3456 7890');
  await contact.getByLabel('Pesan').fill('Mohon hubungi saya.');
  await stopClock(page, contact.getByRole('button', { name: 'Kirim pesan' }));
  await contact.getByRole('button', { name: 'Kirim pesan' }).click();

  // The lasting alert, with the form's own Try again inside (not the 1 s toast).
  await expect(contact.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Coba lagi' }) })).toBeVisible();
  await expect(contact.getByLabel('Pesan')).toHaveValue('Mohon hubungi saya.');
  await contact.getByRole('button', { name: 'Coba lagi' }).click();

  await expect(page.getByRole('status')).toHaveText('Berhasil dikirim!');
  expect(await deliveredFor('Budi Sekali-Saja')).toBe(1);
});
