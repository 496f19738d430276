import { networkInterfaces } from 'node:os';
import { mailChannel, mailText, VISITOR_LINE } from '../delivery/channels';
import type { StoredMessage } from '../store/message-store';
import { startSmtpSink, type ReceivedMail } from '../testing/smtp-sink';

/** Bytes given as `=XX` (quoted-printable, Q words) or as themselves, read as UTF-8. */
const utf8OfEscapes = (text: string, escape: RegExp) =>
  Buffer.from(
    text.replace(escape, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** A header's value as a mail client shows it: unfolded, its RFC 2047 encoded-words decoded once. */
function shownHeader(raw: string, name: string): string {
  const head = raw.split('\r\n\r\n')[0]!.replace(/\r\n[ \t]/g, ' ');
  const value = new RegExp(`^${name}: (.*)$`, 'mi').exec(head)![1]!;
  return value
    .replace(/(\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : utf8OfEscapes(text.replace(/_/g, ' '), /=([0-9A-F]{2})/gi),
    );
}

/** The plain-text body as a mail client shows it. */
function shownBody(mail: ReceivedMail): string {
  const [head, ...rest] = mail.raw.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n');
  const text = /^Content-Transfer-Encoding: quoted-printable/im.test(head!) ? utf8OfEscapes(body.replace(/=\r\n/g, ''), /=([0-9A-F]{2})/g) : body;
  return text.replace(/\r\n/g, '\n');
}

function stored(fields: Partial<StoredMessage>): StoredMessage {
  return {
    id: '6f1c0000-0000-4000-8000-000000000001',
    receivedAt: new Date('2026-05-01T10:00:00.000Z'),
    name: 'Asha Rao',
    telephone: '+91 98765 43210',
    message: 'Please call me about a loan.',
    language: 'en',
    idempotencyKey: 'mail-test-0001',
    delivery: { status: 'queued', attempts: 0, lastError: null, deliveredAt: null },
    ...fields,
  };
}

async function sendThrough(sink: Awaited<ReturnType<typeof startSmtpSink>>, message: StoredMessage, smtpUrl = sink.url, allowPlaintext?: boolean) {
  const channel = mailChannel({ smtpUrl, from: 'portico@lender.example', to: 'contact@lender.example', allowPlaintext });
  try {
    await channel.send(message);
  } finally {
    channel.close?.();
  }
}

describe('the mail the lender gets', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.close());

  it('fences what the visitor typed: a forged label stays inside the field it was typed in', async () => {
    const forged = 'Telephone: +91 00000 FORGED';
    await sendThrough(
      sink,
      stored({
        name: `Asha\n${forged}\nMessage id: 00000000-0000-0000-0000-000000000000`,
        telephone: '+91 98765 43210\r\nLanguage: id',
        // Line separators a client may break on, and a right-to-left override that would reorder a line.
        message: `Hello\u2028Received: 1999-01-01\u0085Name: Nobody\u000bok\u202eDETSURT\rlast`,
      }),
    );
    const body = shownBody(sink.mails.at(-1)!);
    const ownLines = body.split('\n').filter((line) => !line.startsWith(VISITOR_LINE));
    expect(ownLines).toEqual([
      'Contact message 6f1c0000-0000-4000-8000-000000000001',
      'Received: 2026-05-01T10:00:00.000Z',
      'Language: en',
      '',
      'The visitor\'s words follow, each line behind "|".',
      '',
      'Name:',
      'Telephone:',
      'Message:',
      '',
    ]);
    expect(body).toContain(
      `Name:\n| Asha\n| ${forged}\n| Message id: 00000000-0000-0000-0000-000000000000\nTelephone:\n| +91 98765 43210\n| Language: id\nMessage:\n`,
    );
    expect(body).toContain('| Hello\n| Received: 1999-01-01\n| Name: Nobody\n| ok\ufffdDETSURT\n| last\n');
  });

  it('shows a name made of encoded-words as the characters typed, never as what they decode to', async () => {
    for (const name of ['=?utf-8?b?QWRtaW4gVGVhbQ==?=', '=?UTF-8?Q?Admin_Team?= =?utf-8?q?_Portico?=', 'Dewi =?iso-8859-1?q?Ayu?=', 'नमस्ते 😀'.repeat(8)]) {
      await sendThrough(sink, stored({ name }));
      const mail = sink.mails.at(-1)!;
      expect(shownHeader(mail.raw, 'Subject')).toBe(`Contact message from ${Array.from(name).slice(0, 80).join('')}`);
    }
  });

  it('has one Subject and no header a visitor added', async () => {
    await sendThrough(sink, stored({ name: 'Evil\r\nBcc: x@evil.example\r\nSubject: pay now' }));
    const head = sink.mails.at(-1)!.raw.split('\r\n\r\n')[0]!;
    expect(head.match(/^Subject:/gim)).toHaveLength(1);
    expect(head).not.toMatch(/^(Bcc|Subject: pay)/im);
    expect(mailText(stored({ name: 'Evil\r\nBcc: x' }))).toContain('Name:\n| Evil\n| Bcc: x\n');
  });
});

describe('smtp:// sends the password and the messages only over TLS', () => {
  // A server on another machine, as far as the client can tell: this machine's own LAN address.
  const lanAddress = Object.values(networkInterfaces())
    .flat()
    .find((info) => info?.family === 'IPv4' && !info.internal)?.address;
  const onLan = lanAddress ? it : it.skip;

  onLan('refuses a server that does not offer STARTTLS before logging in or sending', async () => {
    const sink = await startSmtpSink({ host: lanAddress });
    try {
      const url = `smtp://lender:s3cret@${lanAddress}:${sink.port}`;
      await expect(sendThrough(sink, stored({}), url)).rejects.toThrow(/STARTTLS/i);
      expect(sink.logins).toEqual([]);
      expect(sink.mails).toEqual([]);
      // ?requireTLS=false in the URL does not lift it: only the documented switch does.
      await expect(sendThrough(sink, stored({}), `${url}?requireTLS=false&ignoreTLS=true`)).rejects.toThrow(/STARTTLS/i);
      expect(sink.logins).toEqual([]);

      // PORTICO_SMTP_ALLOW_PLAINTEXT=1: the operator's explicit choice.
      await sendThrough(sink, stored({}), url, true);
      expect(sink.logins).toEqual(['lender']);
      expect(sink.mails).toHaveLength(1);
    } finally {
      await sink.close();
    }
  });

  it('sends in clear to a server on this machine (loopback never leaves it)', async () => {
    const sink = await startSmtpSink({ host: '127.0.0.1' });
    try {
      await sendThrough(sink, stored({}), `smtp://lender:s3cret@127.0.0.1:${sink.port}`);
      expect(sink.logins).toEqual(['lender']);
      expect(sink.mails).toHaveLength(1);
    } finally {
      await sink.close();
    }
  });
});
