import { createHmac } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { StoredMessage } from '../store/message-store';

/** A place the lender reads messages: a webhook or a mailbox. */
export interface Channel {
  readonly name: 'webhook' | 'mail';
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
const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, ' ').slice(0, 80);

/** Sends each message as a plain-text e-mail (never HTML: the text is the visitor's). */
export function mailChannel(options: { smtpUrl: string; from: string; to: string }): Channel {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    name: 'mail',
    async send(message) {
      await transport.sendMail({
        from: options.from,
        to: options.to,
        subject: `Contact message from ${oneLine(message.name)}`,
        messageId: `<${message.id}@portico.contact>`,
        headers: { 'X-Portico-Message-Id': message.id, 'Idempotency-Key': message.idempotencyKey },
        text: [
          `Name: ${message.name}`,
          `Telephone: ${message.telephone}`,
          `Language: ${message.language}`,
          `Received: ${message.receivedAt.toISOString()}`,
          `Message id: ${message.id}`,
          '',
          message.message,
          '',
        ].join('\n'),
      });
    },
    close: () => transport.close(),
  };
}
