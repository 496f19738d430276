import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { httpRoot } from '@portico/platform/http';
import type { ContactFormTexts } from '@portico/contract/contact-form';
import { contactSettings, startContactService, type ContactService } from '@portico/messages';
import { send } from '@portico/messages/testing';
import { captureLog } from '@portico/platform/testing';
import { withFormAnswer } from '../contact-form-page';
import { contactForm } from '../http/plugins/contact-form';
import type { ServerRendering } from '../ssr/server-rendering';

// POST /contact, the form without JavaScript (issue 49), on the real message
// store, answered from a page as the pipeline would hand it. Checked to fail
// before the change: without the route every request here is a 404.

const TEXTS: ContactFormTexts = {
  required: 'Please fill in this field.',
  incomplete: 'Please provide complete information!',
  sent: 'Thank you. Your message has reached us.',
  rateLimited: 'Please wait a few minutes.',
  busy: 'The server is busy.',
  invalid: { name: 'Check the Name field.', telephone: 'Check the Telephone field.', message: 'Check the Message field.' },
  refused: 'The server refused it.',
};

/** A page holding Contact's form as the server composes it (ids under its prefix; its words kept apart, taken out of its HTML). */
function page(language: string): string {
  return [
    `<!doctype html><html lang="${language}"><head><title>Portico</title></head><body>`,
    '<div data-section-island="home"><p>Home</p></div>',
    '<div data-section-island="contact"><article class="contact-section">',
    '<form id="_contact-R_1_-form" class="contact-form" method="post" action="/contact#contact" novalidate="">',
    `<input type="hidden" name="language" value="${language}">`,
    '<label for="_contact-R_1_-name">Name</label><input type="text" id="_contact-R_1_-name" name="name">',
    '<label for="_contact-R_1_-telephone">Telephone</label><input type="tel" id="_contact-R_1_-telephone" name="telephone">',
    '<label for="_contact-R_1_-message">Message</label><textarea rows="5" id="_contact-R_1_-message" name="message"></textarea>',
    '<button type="submit">Send message</button></form></article></div></body></html>',
  ].join('');
}

const PAGE_HEADERS = { 'Content-Security-Policy': "default-src 'self'; script-src 'sha256-abc'", 'X-Frame-Options': 'DENY', ETag: '"kept"' };
const wordsOf = (language: string) => new Map([['contact', { ...TEXTS, sent: `${TEXTS.sent} (${language})` }]]);
const asked: string[] = [];
const rendering = {
  pageHtml: (_req, search) => {
    asked.push(search);
    const language = search.includes('type=2') ? 'id' : 'en';
    return Promise.resolve({ html: page(language), headers: PAGE_HEADERS, formTexts: wordsOf(language) });
  },
} as Pick<ServerRendering, 'pageHtml'> as ServerRendering;

const folder = mkdtempSync(path.join(tmpdir(), 'portico-contact-form-'));
const log = captureLog();
let service: ContactService;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  service = await startContactService({
    settings: contactSettings({ PORTICO_DATA_DIR: folder, PORTICO_CONTACT_RATE_LIMIT: '3' }, { rootDir: folder, invokedFrom: folder }),
    // Each test's client named by a header: on loopback every request comes from 127.0.0.1.
    requestOrigin: (req) => ({ origin: `http://${req.headers.host}`, address: String(req.headers['x-test-client'] ?? '127.0.0.1') }),
    log: log.logger,
  });
  app = Fastify();
  // As the host's port registers it first: the visitor, the body parser, the error handler.
  await app.register(httpRoot, { trustProxy: false });
  await app.register(contactForm, { endpoint: () => service.endpoint, rendering });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await service?.close();
  rmSync(folder, { recursive: true, force: true });
});

const stored = async () => (await service.store.counts()).messages;
const FORM = 'application/x-www-form-urlencoded';
let clients = 0;
/** Each test from an address of its own, so the rate limit counts only its own messages. */
const newClient = () => `10.0.${++clients}.1`;

function postForm(fields: Record<string, string>, { client = newClient(), origin = base, type = FORM } = {}) {
  return send(`${base}/contact`, {
    headers: { 'x-test-client': client, ...(origin ? { origin } : {}), 'content-type': type },
    body: new URLSearchParams(fields).toString(),
  });
}

const get = (url: string) => send(`${base}${url}`, { method: 'GET' });

const filled = { language: 'en', name: 'Asha Rao', telephone: '+91 98450 12345', message: 'Please call me about a loan.', website: '' };

test('a complete form is stored and answered 303 to the thank-you, whose address and answer carry nothing typed', async () => {
  const before = await stored();
  const answer = await postForm({ ...filled, language: 'id' });
  expect(answer.status).toBe(303);
  expect(answer.headers.location).toBe('/contact?sent=1&type=2#contact');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(await stored()).toBe(before + 1);
  const thanks = await get('/contact?sent=1&type=2');
  expect(thanks.status).toBe(200);
  expect(thanks.body).toContain('role="status"');
  expect(thanks.body).toContain(`${TEXTS.sent} (id)`);
  expect(thanks.headers['cache-control']).toBe('no-store');
  // A reload of the thank-you is a GET: nothing is stored again.
  await get('/contact?sent=1&type=2');
  expect(await stored()).toBe(before + 1);
});

test('the same form posted again (Back, then send) is the same message, stored once', async () => {
  const client = newClient();
  const before = await stored();
  expect((await postForm(filled, { client })).status).toBe(303);
  expect((await postForm(filled, { client })).status).toBe(303);
  expect(await stored()).toBe(before + 1);
});

test('empty fields answer 422 with the page in the form language: each empty field marked, what was typed kept and escaped, never cached', async () => {
  const before = await stored();
  const typed = '<script>alert(1)</script> "quoted" & <b>bold</b>';
  const answer = await postForm({ language: 'id', name: typed, telephone: '   ', message: '' });
  expect(answer.status).toBe(422);
  expect(asked.at(-1)).toBe('?type=2');
  expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers.etag).toBeUndefined();
  expect(answer.headers['content-security-policy']).toBe(PAGE_HEADERS['Content-Security-Policy']);
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.body).toContain('<html lang="id">');
  // Typed HTML comes back as a value, never as markup: its quote cannot end the attribute (the HTML standard's
  // serialiser leaves `<` as it is inside a quoted value, where a browser reads it as text).
  expect(answer.body).toContain('value="<script>alert(1)</script> &quot;quoted&quot; &amp; <b>bold</b>"');
  expect(answer.body.match(/<script/g)).toHaveLength(1);
  expect(answer.body.match(/class="contact-form__error"/g)).toHaveLength(2);
  expect(answer.body).toContain(
    'id="_contact-R_1_-telephone" name="telephone" value="   " aria-invalid="true" aria-describedby="_contact-R_1_-telephone-error" autofocus=""',
  );
  expect(answer.body).toContain(`<div role="alert" class="contact-form__delivery"><p>${TEXTS.incomplete}</p></div>`);
  expect(await stored()).toBe(before);
});

test('a field over its limit is marked with its own sentence, and the message is kept in its textarea', async () => {
  const answer = await postForm({ ...filled, name: 'x'.repeat(201), message: 'line one\r\n</textarea><b>two</b>' });
  expect(answer.status).toBe(422);
  expect(answer.body).toContain(`<p id="_contact-R_1_-name-error" class="contact-form__error">${TEXTS.invalid.name}</p>`);
  expect(answer.body).toContain('name="message">line one\n&lt;/textarea&gt;&lt;b&gt;two&lt;/b&gt;</textarea>');
});

test('the rate limit is the JSON API one: past it 429 with Retry-After, the fields kept', async () => {
  const client = newClient();
  for (let n = 0; n < 3; n += 1) expect((await postForm({ ...filled, message: `message ${n}` }, { client })).status).toBe(303);
  const answer = await postForm({ ...filled, message: 'one too many' }, { client });
  expect(answer.status).toBe(429);
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  expect(answer.body).toContain(TEXTS.rateLimited);
  expect(answer.body).toContain('one too many</textarea>');
});

test.each([
  ['another site', { origin: 'https://attacker.example' }, 403],
  ['no Origin', { origin: '' }, 403],
  ['JSON', { type: 'application/json' }, 415],
  ['multipart', { type: 'multipart/form-data; boundary=x' }, 415],
])('a form from %s is refused before its body is read, nothing stored', async (_name, options, status) => {
  const before = await stored();
  const answer = await postForm(filled, options);
  expect(answer.status).toBe(status);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(await stored()).toBe(before);
});

test('a body over 64 KB is 413, unknown or repeated fields 400, other methods 405; nothing stored', async () => {
  const before = await stored();
  expect((await postForm({ ...filled, message: 'm'.repeat(70 * 1024) })).status).toBe(413);
  expect((await postForm({ ...filled, idempotencyKey: 'chosen-by-the-sender' })).status).toBe(400);
  const twice = await send(`${base}/contact`, {
    headers: { origin: base, 'content-type': FORM },
    body: `${new URLSearchParams(filled).toString()}&name=Other`,
  });
  expect(twice.status).toBe(400);
  expect((await send(`${base}/contact`, { method: 'PUT' })).status).toBe(405);
  expect(await stored()).toBe(before);
});

test('a filled hidden field gets the thank-you, and nothing is stored', async () => {
  const before = await stored();
  expect((await postForm({ ...filled, website: 'https://spam.example' })).status).toBe(303);
  expect(await stored()).toBe(before);
});

test('nothing typed reaches a log line or an address', async () => {
  const secret = 'Rahasia-7Q4Z';
  const answers = [
    await postForm({ ...filled, name: secret }),
    await postForm({ ...filled, name: secret, message: '' }),
    await postForm({ ...filled, name: secret, website: secret }),
  ];
  for (const answer of answers) expect(answer.headers.location ?? '').not.toContain(secret);
  expect(log.text()).not.toContain(secret);
});

test("another section's look-alike form is never filled: only the form whose id is Contact's own", () => {
  const decoy = '<div data-section-island="home"><form id="_home-R_1_-form" action="/contact#contact"><input id="_home-R_1_-name" name="name"></form></div>';
  const answered = withFormAnswer(
    { html: page('en').replace('<div data-section-island="home"><p>Home</p></div>', decoy), formTexts: wordsOf('en') },
    { values: { name: 'Asha', telephone: '', message: '' } },
  );
  expect(answered).toContain('<input id="_home-R_1_-name" name="name"></form>');
  expect(answered).toContain('id="_contact-R_1_-name" name="name" value="Asha"');
  // A page whose Contact was left to the browser holds no form to answer in.
  expect(withFormAnswer({ html: page('en').replace(/<form[^]*<\/form>/, ''), formTexts: wordsOf('en') }, { notice: 'sent' })).toBeUndefined();
});

test("the words are Contact's own: another section's are never used, and without Contact's the form is not answered in", () => {
  expect(withFormAnswer({ html: page('en'), formTexts: new Map([['home', TEXTS]]) }, { notice: 'sent' })).toBeUndefined();
  expect(withFormAnswer({ html: page('en'), formTexts: new Map() }, { notice: 'sent' })).toBeUndefined();
});

test("Contact's words are a section team's output: written into the answer as text, never as markup", () => {
  // Checked to fail if the answer wrote them as HTML (an <img> with a handler in the visitor's page).
  const hostile = { ...TEXTS, required: '<img src=x onerror="alert(1)">', incomplete: '</form><script>alert(2)</script>' };
  const answered = withFormAnswer(
    { html: page('en'), formTexts: new Map([['contact', hostile]]) },
    { values: { name: '', telephone: '', message: '' }, marked: [{ field: 'name', reason: 'required' }], notice: 'incomplete' },
  )!;
  expect(answered).toContain('&lt;img src=x onerror="alert(1)"&gt;');
  expect(answered).toContain('&lt;/form&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
  expect(answered).not.toMatch(/<img|<script/);
});
