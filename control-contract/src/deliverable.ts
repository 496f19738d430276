import { fill } from '@portico/shared-config';

/** What of `GET /api/alerts`'s answer the words need (its schema is in control-contract.ts, which exports this module: no import back). */
interface AlertsAnswer {
  webhookUrl: string | null;
  email: string | null;
  canSend?: { webhook: boolean; mail: boolean };
}

/** The sentences that say what alerts can reach, per channel: `{url}` the webhook, `{email}` the address. */
export interface DeliverableWords {
  webhookNone: string;
  webhookReady: string;
  webhookNoSecret: string;
  mailNone: string;
  mailReady: string;
  mailNoServer: string;
  nothingDeliverable: string;
}

/** In English: the console's English pack and `npm run release -- alerts show` both say them so. */
export const DELIVERABLE_EN: DeliverableWords = {
  webhookNone: 'Webhook: none set.',
  webhookReady: 'Webhook: each alert is sent to {url}, signed with PORTICO_WEBHOOK_SECRET.',
  webhookNoSecret: 'Webhook: cannot be sent. This server has no PORTICO_WEBHOOK_SECRET to sign it with; set it and restart the server.',
  mailNone: 'E-mail: no address set.',
  mailReady: 'E-mail: each alert is mailed to {email} through PORTICO_SMTP_URL.',
  mailNoServer: 'E-mail: cannot be sent. This server has no mail server (PORTICO_SMTP_URL and PORTICO_MAIL_FROM); set them and restart the server.',
  nothingDeliverable: 'No alert can be delivered as things are: nothing reaches anyone.',
};

/**
 * Each channel in words: set or not, and whether the answering server can
 * send it (a webhook needs the secret it is signed with, an e-mail a mail
 * server); `any` whether anything reaches anyone. "Saved" alone hid that
 * nothing could go out (issue 49). An answer without `canSend` (a server
 * from before it) is taken to send what is set.
 */
export function deliverable(settings: AlertsAnswer, words: DeliverableWords): { lines: string[]; any: boolean } {
  const canSend = settings.canSend ?? { webhook: true, mail: true };
  const webhook =
    settings.webhookUrl === null ? words.webhookNone : canSend.webhook ? fill(words.webhookReady, { url: settings.webhookUrl }) : words.webhookNoSecret;
  const mail = settings.email === null ? words.mailNone : canSend.mail ? fill(words.mailReady, { email: settings.email }) : words.mailNoServer;
  const any = (settings.webhookUrl !== null && canSend.webhook) || (settings.email !== null && canSend.mail);
  return { lines: [webhook, mail, ...(any ? [] : [words.nothingDeliverable])], any };
}
