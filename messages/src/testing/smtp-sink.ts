import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A mailbox that takes every mail, without TLS (no STARTTLS offered), on
 * `host` (loopback by default). It accepts any login in clear and records
 * the user names, so a test sees whether a client sent its password.
 */
export async function startSmtpSink(options: { host?: string } = {}) {
  const mails: ReceivedMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    mails,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
