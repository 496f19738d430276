import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import nodemailer from 'nodemailer';
import { encodeWord } from 'nodemailer/lib/mime-funcs';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
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
export function webhookPayload(message: StoredMessage): string {
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

export const SIGNATURE_HEADER = 'X-Portico-Signature';

/** `sha256=` and the HMAC-SHA256 of the exact body bytes, in hex. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
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
      const body = webhookPayload(message);
      const response = await fetch(options.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Idempotency-Key': message.idempotencyKey,
          'X-Portico-Message-Id': message.id,
          [SIGNATURE_HEADER]: signature(options.secret, body),
        },
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
    },
  };
}

/** One line, for a header: no line breaks a visitor could use to add headers. */
const oneLine = (text: string) =>
  Array.from(text.replace(/[\r\n\t]+/g, ' '))
    .slice(0, 80)
    .join('');

/**
 * The Subject, with the visitor's name as RFC 2047 encoded-words made here:
 * a name that is itself an encoded-word (`=?utf-8?b?…?=`), which nodemailer
 * passes through as already encoded, is shown by the mail client as the
 * characters the visitor typed, never as the text it would decode to.
 */
export function mailSubject(name: string): string {
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

/** Whether a URL's host is this machine: what goes there never crosses a network. */
function isLoopback(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (bare.toLowerCase() === 'localhost') return true;
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
}

/**
 * nodemailer's options for PORTICO_SMTP_URL. `smtps://` is TLS from the
 * first byte; `smtp://` must upgrade with STARTTLS before AUTH or the
 * message is sent (nodemailer would otherwise go on in clear when the
 * server does not offer it), unless the server is on this machine or the
 * operator set PORTICO_SMTP_ALLOW_PLAINTEXT=1.
 */
export function smtpOptions(smtpUrl: string, allowPlaintext = false): SMTPTransport.Options {
  const options: SMTPTransport.Options = parseConnectionUrl(smtpUrl);
  if (options.secure || allowPlaintext || isLoopback(options.host ?? '')) return options;
  return { ...options, requireTLS: true, ignoreTLS: false };
}

/** Sends each message as a plain-text e-mail (never HTML: the text is the visitor's). */
export function mailChannel(options: { smtpUrl: string; from: string; to: string; allowPlaintext?: boolean }): Channel {
  const transport = nodemailer.createTransport(smtpOptions(options.smtpUrl, options.allowPlaintext));
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

/** A notice the server itself writes (an operator's alert), mailed through the same SMTP settings as the messages. */
export interface NoticeMailer {
  send(notice: { to: string; subject: string; text: string; id: string }): Promise<void>;
  close(): void;
}

/** Mails the server's own notices (plain text, one line of subject) through PORTICO_SMTP_URL, as the messages are. */
export function noticeMailer(options: { smtpUrl: string; from: string; allowPlaintext?: boolean }): NoticeMailer {
  const transport = nodemailer.createTransport(smtpOptions(options.smtpUrl, options.allowPlaintext));
  return {
    async send(notice) {
      await transport.sendMail({
        from: options.from,
        to: notice.to,
        messageId: `<${notice.id}@portico.alert>`,
        subject: oneLine(notice.subject),
        text: notice.text,
      });
    },
    close: () => transport.close(),
  };
}
