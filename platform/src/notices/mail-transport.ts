import ipaddr from 'ipaddr.js';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

// nodemailer is required when a transport is made, not when the server
// starts: most servers mail nothing, and loading it cost 45-60 ms of every
// start (issue 47).
/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (above) */
const nodemailer = () => require('nodemailer') as typeof import('nodemailer');
const parseConnectionUrl = (url: string) => (require('nodemailer/lib/shared') as typeof import('nodemailer/lib/shared')).parseConnectionUrl(url);
/* eslint-enable @typescript-eslint/no-require-imports */

/** The mail server's settings (PORTICO_SMTP_URL, PORTICO_SMTP_ALLOW_PLAINTEXT). */
export interface SmtpSettings {
  smtpUrl: string;
  allowPlaintext?: boolean;
}

/** One line, for a header: no line breaks a visitor could use to add headers. */
export const oneLine = (text: string): string =>
  Array.from(text.replace(/[\r\n\t]+/g, ' '))
    .slice(0, 80)
    .join('');

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

/** The one way the server reaches a mail server: contact messages and alerts go through the same rules. */
export function mailTransport(settings: SmtpSettings): Transporter<SMTPTransport.SentMessageInfo> {
  return nodemailer().createTransport(smtpOptions(settings.smtpUrl, settings.allowPlaintext));
}

/** A notice the server itself writes (an operator's alert), mailed through the same SMTP settings as the messages. */
export interface NoticeMailer {
  send(notice: { to: string; subject: string; text: string; id: string }): Promise<void>;
  close(): void;
}

/** Mails the server's own notices (plain text, one line of subject) through PORTICO_SMTP_URL, as the messages are. */
export function noticeMailer(options: SmtpSettings & { from: string }): NoticeMailer {
  const transport = mailTransport(options);
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
