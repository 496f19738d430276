import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { backoffSeconds, postSigned, SIGNATURE_HEADER, signature, smtpOptions } from '../notices';

// Notice delivery, which contact messages and operators' alerts share: the
// rules that keep a signed notice where the operator sent it and a mail
// password off the wire hold for both because they are written once.

let server: Server;
let base: string;
let answer: (req: IncomingMessage, res: ServerResponse) => void;
const received: { headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

const notice = { secret: 'the-secret', body: '{"id":"n-1","detail":"é"}', headers: { 'Idempotency-Key': 'n-1' } };

it('signs the exact body bytes, and resolves with the status once the webhook took it', async () => {
  answer = (_req, res) => res.writeHead(202).end();
  expect(await postSigned({ url: `${base}/hook`, ...notice })).toBe(202);
  const [sent] = received;
  expect(sent!.body).toBe(notice.body);
  expect(sent!.headers[SIGNATURE_HEADER.toLowerCase()]).toBe(signature('the-secret', notice.body));
  expect(sent!.headers['idempotency-key']).toBe('n-1');
  expect(sent!.headers['content-type']).toBe('application/json');
});

it('never follows a redirect: the signed notice goes only where the operator said', async () => {
  answer = (req, res) => res.writeHead(req.url === '/hook' ? 307 : 200, { Location: `${base}/elsewhere` }).end();
  await expect(postSigned({ url: `${base}/hook`, ...notice })).rejects.toThrow();
  expect(received).toHaveLength(1);
});

it('throws with the webhook’s status when it refuses', async () => {
  answer = (_req, res) => res.writeHead(500).end();
  await expect(postSigned({ url: `${base}/hook`, ...notice })).rejects.toThrow('the webhook answered 500');
});

it('requires STARTTLS to a mail server on another machine, unless the operator allows plain text; loopback needs neither', () => {
  expect(smtpOptions('smtp://user:pass@mail.lender.example:587')).toMatchObject({ requireTLS: true, ignoreTLS: false });
  expect(smtpOptions('smtp://user:pass@mail.lender.example:587?requireTLS=false&ignoreTLS=true')).toMatchObject({ requireTLS: true, ignoreTLS: false });
  expect(smtpOptions('smtp://user:pass@mail.lender.example:587', true)).not.toHaveProperty('requireTLS', true);
  expect(smtpOptions('smtp://127.0.0.1:2525')).not.toHaveProperty('requireTLS');
  expect(smtpOptions('smtp://[::1]:2525')).not.toHaveProperty('requireTLS');
  expect(smtpOptions('smtps://mail.lender.example')).toMatchObject({ secure: true });
});

it('waits 10 s, 20 s, 40 s … up to an hour between attempts', () => {
  expect([1, 2, 3, 10, 20].map((attempt) => backoffSeconds(attempt))).toEqual([10, 20, 40, 3600, 3600]);
  expect(backoffSeconds(2, 1)).toBe(2);
});
