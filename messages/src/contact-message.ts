/**
 * What a visitor sends from the Contact section, and the server's own checks
 * of it. The form itself checks only that fields are not empty (as the
 * specification says); these limits protect storage and are named in the
 * answer so a visitor can be told which field to shorten.
 */

import { FIELD_LIMITS, HONEYPOT_FIELD, IDEMPOTENCY_KEY } from '@portico/contract/contact-wire';
import { LANGUAGES, type Language } from '@portico/contract/languages';

/** The languages a message may be in: the page's. */
export type MessageLanguage = Language;

export interface ContactMessage {
  name: string;
  telephone: string;
  message: string;
  language: MessageLanguage;
  idempotencyKey: string;
}

export type ContactField = keyof ContactMessage;

export type ParsedContact = { ok: true; message: ContactMessage; honeypot: boolean } | { ok: false; error: string; field?: ContactField };

/** In a `u` regular expression a surrogate pair is one character, so this finds only halves. */
const LONE_SURROGATE = /\p{Cs}/u;

const TEXT_FIELDS = ['name', 'telephone', 'message'] as const;
const KNOWN_FIELDS = new Set<string>([...TEXT_FIELDS, 'language', 'idempotencyKey', HONEYPOT_FIELD]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** A text field: a string, not blank, within its limit, and storable as PostgreSQL text. */
function checkText(field: (typeof TEXT_FIELDS)[number], value: unknown): string | { error: string } {
  if (value === undefined) return { error: `${field} is missing` };
  if (typeof value !== 'string') return { error: `${field} must be a string, not ${describe(value)}` };
  const text = value.trim();
  if (text === '') return { error: `${field} is empty` };
  // PostgreSQL text holds no NUL, and a lone surrogate has no UTF-8 form.
  if (text.includes('\u0000') || LONE_SURROGATE.test(text)) return { error: `${field} holds characters that cannot be stored` };
  const length = [...text].length;
  const limit = FIELD_LIMITS[field];
  if (length > limit) return { error: `${field} is ${length} characters long; at most ${limit} are accepted` };
  return text;
}

/**
 * Checks a parsed JSON body. The first bad field is named; nothing else is
 * read from the body, so unknown keys (`__proto__` included) are refused
 * rather than carried along.
 */
export function parseContact(body: unknown): ParsedContact {
  if (!isRecord(body)) return { ok: false, error: `the body must be a JSON object, not ${describe(body)}` };
  const unknown = Object.keys(body).find((key) => !KNOWN_FIELDS.has(key));
  if (unknown !== undefined) return { ok: false, error: `unknown field ${JSON.stringify(unknown.slice(0, 40))}` };

  const texts: Partial<Record<(typeof TEXT_FIELDS)[number], string>> = {};
  for (const field of TEXT_FIELDS) {
    const checked = checkText(field, body[field]);
    if (typeof checked !== 'string') return { ok: false, error: checked.error, field };
    texts[field] = checked;
  }

  const { language, idempotencyKey } = body;
  if (language === undefined) return { ok: false, error: 'language is missing', field: 'language' };
  if (!LANGUAGES.includes(language as MessageLanguage)) {
    return { ok: false, error: `language must be one of ${LANGUAGES.map((tag) => `"${tag}"`).join(', ')}`, field: 'language' };
  }
  if (idempotencyKey === undefined) return { ok: false, error: 'idempotencyKey is missing', field: 'idempotencyKey' };
  if (typeof idempotencyKey !== 'string' || !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    return { ok: false, error: 'idempotencyKey must be 8 to 100 characters of A-Z, a-z, 0-9, _ and -', field: 'idempotencyKey' };
  }

  const trap = body[HONEYPOT_FIELD];
  return {
    ok: true,
    message: { name: texts.name!, telephone: texts.telephone!, message: texts.message!, language: language as MessageLanguage, idempotencyKey },
    honeypot: trap !== undefined && trap !== null && trap !== '',
  };
}
