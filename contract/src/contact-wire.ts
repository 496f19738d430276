/**
 * `POST /api/contact`, the wire contract between the Contact section's form
 * and the server's message store, as data both sides read: the form names
 * the limits to the visitor after a 400, the endpoint enforces them (its zod
 * schema is built from these). One place, so they cannot drift apart.
 */
import type { Language } from './languages';

/** Where the form posts: the page's own origin, which the CSP's `connect-src 'self'` allows. */
export const CONTACT_PATH = '/api/contact';

/** The largest body the endpoint reads, in bytes: room for any script's 5,000 characters and the other fields, far below what could hurt. */
export const CONTACT_BODY_LIMIT = 64 * 1024;

/** Character limits, counted in characters (code points), not bytes. */
export const FIELD_LIMITS = { name: 200, telephone: 40, message: 5000 } as const;

export type TextField = keyof typeof FIELD_LIMITS;

/** The idempotency key's shape: the form makes one per message, a resend reuses it. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * The field people never see: a bot that fills every input fills this one
 * too, and the server answers 201 and drops the message. Its name says
 * nothing about what it is.
 */
export const HONEYPOT_FIELD = 'website';

/** The body, exactly. */
export interface ContactRequest {
  name: string;
  telephone: string;
  message: string;
  language: Language;
  idempotencyKey: string;
  [HONEYPOT_FIELD]: string;
}
