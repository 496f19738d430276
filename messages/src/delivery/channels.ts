import { mailTransport, oneLine, postSigned, type SmtpSettings } from '@portico/platform/notices';
import type { StoredMessage } from '../store/message-store';

/** The kinds of place a message is delivered to. */
export type MessageChannelName = 'webhook' | 'mail';

/** A place the lender reads messages: a webhook or a mailbox. */
export interface Channel {
  readonly name: MessageChannelName;
  /** Resolves once the channel has taken the message; throws with the reason otherwise. */
  send(message: StoredMessage): Promise<void>;
  close?(): void;
}

/** The webhook's JSON body: the message as stored, nothing else. */
function webhookPayload(message: StoredMessage): string {
  return JSON.stringify({
    id: message.id,
    idempotencyKey: message.idempotencyKey,
    receivedAt: message.receivedAt.toISOString(),
    language: message.language,
    name: message.name,
    telephone: message.telephone,
    message: message.message,
  });
}

/**
 * POSTs each message to the lender's webhook, signed with the shared secret
 * so the receiver can tell it came from this server. `Idempotency-Key`
 * (the form's key) lets the receiver drop a repeat: delivery is at least
 * once when a server dies between sending and recording.
 */
export function webhookChannel(options: { url: string; secret: string; timeoutMs?: number }): Channel {
  return {
    name: 'webhook',
    async send(message) {
      await postSigned({
        url: options.url,
        secret: options.secret,
        body: webhookPayload(message),
        headers: { 'Idempotency-Key': message.idempotencyKey, 'X-Portico-Message-Id': message.id },
        timeoutMs: options.timeoutMs,
      });
    },
  };
}

/**
 * The Subject, with the visitor's name as RFC 2047 encoded-words made here:
 * a name that is itself an encoded-word (`=?utf-8?b?…?=`), which nodemailer
 * passes through as already encoded, is shown by the mail client as the
 * characters the visitor typed, never as the text it would decode to.
 */
function mailSubject(name: string): string {
  // Required here, not at the start: most servers mail nothing (see mailTransport).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  const { encodeWord } = require('nodemailer/lib/mime-funcs') as typeof import('nodemailer/lib/mime-funcs');
  return `Contact message from ${encodeWord(oneLine(name), 'Q', 52)}`;
}

/** Every line break a mail client might show as one. */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
/** Control characters (but tab) and the marks that reorder or hide text; shown as �. */
const HIDDEN = /(?!\t)[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** How each line of the visitor's text starts in the mail: nothing the server writes does. */
export const VISITOR_LINE = '| ';

const fenced = (text: string) => text.split(LINE_BREAK).map((line) => `${VISITOR_LINE}${line.replace(HIDDEN, '\ufffd')}`);

/**
 * The mail's plain-text body: the server's own lines first, then each field
 * the visitor filled under its label, every line of it behind `| `. A name
 * such as `Asha\nTelephone: +91 …` stays inside the name, visibly.
 */
export function mailText(message: StoredMessage): string {
  return [
    `Contact message ${message.id}`,
    `Received: ${message.receivedAt.toISOString()}`,
    `Language: ${message.language}`,
    '',
    `The visitor's words follow, each line behind "${VISITOR_LINE.trim()}".`,
    '',
    'Name:',
    ...fenced(message.name),
    'Telephone:',
    ...fenced(message.telephone),
    'Message:',
    ...fenced(message.message),
    '',
  ].join('\n');
}

/** Sends each message as a plain-text e-mail (never HTML: the text is the visitor's). */
export function mailChannel(options: SmtpSettings & { from: string; to: string }): Channel {
  const transport = mailTransport(options);
  return {
    name: 'mail',
    async send(message) {
      await transport.sendMail({
        from: options.from,
        to: options.to,
        messageId: `<${message.id}@portico.contact>`,
        headers: {
          Subject: { prepared: true, foldLines: true, value: mailSubject(message.name) },
          'X-Portico-Message-Id': message.id,
          'Idempotency-Key': message.idempotencyKey,
        },
        text: mailText(message),
      });
    },
    close: () => transport.close(),
  };
}
