import { z } from 'zod';
import { LANGUAGES } from '@portico/contract/languages';
import { apiRoute } from '@portico/platform/api';

// The contact messages' part of the control API (the lender's inbox), declared
// once: the control API's routes (@portico/releases) answer it, and
// `npm run messages` and the release command's client read it. It lives with
// the messages, which own their shape; @portico/releases' control contract
// holds it as its `messages` area.

export const DELIVERY_STATUSES = ['queued', 'delivered', 'failed'] as const;

/** What an operator did with messages, as the audit log says it. */
export const MESSAGE_ACCESS_ACTIONS = ['message-read', 'message-export', 'message-delete'] as const;

/** A stored message as the control API answers it: its dates as ISO strings on the wire, as dates once read. */
export const storedMessageSchema = z.object({
  id: z.string(),
  receivedAt: z.coerce.date(),
  name: z.string(),
  telephone: z.string(),
  message: z.string(),
  language: z.enum(LANGUAGES),
  idempotencyKey: z.string(),
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

/** The messages' routes: the inbox, newest first (for a look or an export), one message, a deletion; each audited. */
export const messagesRoutes = {
  list: apiRoute({
    method: 'GET',
    path: '/api/messages',
    query: z.object({ since, export: exportFormat }),
    answer: z.array(storedMessageSchema),
  }),
  get: apiRoute({ method: 'GET', path: '/api/messages/:id', params: z.object({ id: z.string() }), answer: storedMessageSchema }),
  delete: apiRoute({ method: 'DELETE', path: '/api/messages/:id', params: z.object({ id: z.string() }), answer: z.object({ deleted: z.string() }) }),
};
