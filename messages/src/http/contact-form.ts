import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LANGUAGE_FIELD } from '@portico/contract/contact-form';
import { FIELD_LIMITS, HONEYPOT_FIELD, type TextField } from '@portico/contract/contact-wire';
import { LANGUAGES, type Language } from '@portico/contract/languages';
import { clientNetwork } from './client-network';
import { receiveMessage, type ContactEndpoint, type Received } from './contact-routes';

/** The form's fields as the visitor typed them (before any check but their names). */
export interface ContactForm {
  values: Record<TextField, string>;
  language: Language;
  /** The hidden field only a bot fills. */
  trap: string;
}

export type ReadForm = { ok: true; form: ContactForm } | { ok: false; error: string };

const TEXT_FIELDS = Object.keys(FIELD_LIMITS) as TextField[];
const KNOWN = new Set<string>([...TEXT_FIELDS, LANGUAGE_FIELD, HONEYPOT_FIELD]);

/**
 * A form-encoded body (`application/x-www-form-urlencoded`, as the form
 * without script posts it) read into the form's fields: each known name at
 * most once, nothing else. A missing text field is empty (the answer marks
 * it); a language the page does not speak is English, the default page's.
 * A textarea's line ends come as CRLF; they are read as the form's script
 * reads them (LF), so a message is the same text and length by either door.
 */
export function readContactForm(body: string): ReadForm {
  const params = new URLSearchParams(body);
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (!KNOWN.has(name)) return { ok: false, error: `unknown field ${JSON.stringify(name.slice(0, 40))}` };
    if (seen.has(name)) return { ok: false, error: `the field ${name} is sent more than once` };
    seen.add(name);
  }
  const text = (name: string) => (params.get(name) ?? '').replace(/\r\n?/g, '\n');
  const language = LANGUAGES.find((known) => known === params.get(LANGUAGE_FIELD)) ?? 'en';
  const values = Object.fromEntries(TEXT_FIELDS.map((field) => [field, text(field)])) as Record<TextField, string>;
  return { ok: true, form: { values, language, trap: text(HONEYPOT_FIELD) } };
}

/** The fields left empty (spaces count as empty, as in the form with script). */
export function emptyFields(form: ContactForm): TextField[] {
  return TEXT_FIELDS.filter((field) => form.values[field].trim() === '');
}

/**
 * The form's idempotency key, made from what was sent and from where: the
 * same form posted again (Back and send, a reload of the answer) is the same
 * message, stored once, as a retry with script is. A page kept in a cache
 * cannot carry a key of its own: every visitor would share it.
 */
export function formKey(form: ContactForm, address: string): string {
  const { name, telephone, message } = form.values;
  return createHash('sha256')
    .update(JSON.stringify(['form', clientNetwork(address), form.language, name, telephone, message]))
    .digest('base64url');
}

/** The form's message checked and stored as a JSON one is (receiveMessage). */
export function receiveForm(contact: ContactEndpoint, form: ContactForm, request: FastifyRequest): Promise<Received> {
  const { address } = contact.requestOrigin(request.raw);
  const body = { ...form.values, language: form.language, idempotencyKey: formKey(form, address), [HONEYPOT_FIELD]: form.trap };
  return receiveMessage(contact, body, request);
}
