import { z } from 'zod';
import { LANGUAGES } from '@portico/contract/languages';
import { apiRoute } from './api-route';

// The contact messages' part of the control API (the lender's inbox), declared
// once: the control API's routes (@portico/releases) answer it, and
// `npm run messages` and the release command's client read it. It lives with
// the messages, which own their shape; @portico/releases' control contract
// holds it as its `messages` area.

const DELIVERY_STATUSES = ['queued', 'delivered', 'failed'] as const;

/** What an operator did with messages, as the audit log says it. */
export const MESSAGE_ACCESS_ACTIONS = ['message-read', 'message-export', 'message-delete'] as const;

/** A stored message as the control API answers it: its dates as ISO strings on the wire, as dates once read. */
const storedMessageSchema = z.object({
  id: z.string(),
  receivedAt: z.coerce.date(),
  name: z.string(),
  telephone: z.string(),
  message: z.string(),
  language: z.enum(LANGUAGES),
  idempotencyKey: z.string(),
  /** The request that stored it (its X-Request-Id): its lines in the server's log. */
  requestId: z.string().nullable().optional(),
  delivery: z.object({
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number(),
    lastError: z.string().nullable(),
    deliveredAt: z.coerce.date().nullable(),
  }),
});

const since = z
  .string()
  .refine((text) => !Number.isNaN(new Date(text).getTime()), 'is not a date')
  .transform((text) => new Date(text))
  .optional();
const exportFormat = z.enum(['csv', 'json'], 'is csv or json').optional();

/** `GET /api/messages` answers this many messages unless `?limit=` says otherwise (an export: all of them). */
export const DEFAULT_MESSAGES_LIMIT = 50;
const MAX_MESSAGES_LIMIT = 1000;
const limit = z
  .string()
  .optional()
  .transform((text, context) => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (Number.isInteger(value) && value >= 1 && value <= MAX_MESSAGES_LIMIT) return value;
    context.addIssue({ code: 'custom', message: `must be a whole number from 1 to ${MAX_MESSAGES_LIMIT}` });
    return z.NEVER;
  });

/** The messages' routes: the inbox, newest first (for a look or an export), one message, a deletion; each audited. */
export const messagesRoutes = {
  list: apiRoute({
    method: 'GET',
    path: '/api/messages',
    query: z.object({
      since,
      export: exportFormat,
      /** Words found in the name, the telephone or the text (each word, any case). */
      q: z.string().max(200, 'is at most 200 characters').optional(),
      /** A page: at most this many (the console's inbox); without it, every message. */
      limit,
      /** The next page: the messages older than this one (the last id of the page before). */
      before: z.string().max(100).optional(),
    }),
    answer: z.array(storedMessageSchema),
  }),
  /** Where this server delivers messages: none, and they only wait in the store (the inbox says so). */
  delivery: apiRoute({
    method: 'GET',
    path: '/api/messages/delivery',
    answer: z.object({ channels: z.array(z.enum(['webhook', 'mail'])) }),
  }),
  get: apiRoute({ method: 'GET', path: '/api/messages/:id', params: z.object({ id: z.string() }), answer: storedMessageSchema }),
  delete: apiRoute({ method: 'DELETE', path: '/api/messages/:id', params: z.object({ id: z.string() }), answer: z.object({ deleted: z.string() }) }),
};
