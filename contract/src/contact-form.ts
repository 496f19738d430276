/**
 * The Contact form without JavaScript (issue 49): what the section's
 * server-rendered form and the server's form route agree on. The form posts
 * `application/x-www-form-urlencoded` to `CONTACT_FORM_PATH` on the page's
 * own origin; the server answers with the page itself, in the form's
 * language, the fields kept with their errors, or a 303 to the thank-you.
 *
 * The answer's words are the section's: its form carries them, in the
 * page's language, in `FORM_TEXTS_ATTRIBUTE`, so a text change ships with
 * the section's deploy and the server holds no copy of another team's copy.
 * The server takes them out of the section's HTML as it checks it, keeps
 * them with that HTML for its answer, and sends the page without them: a
 * visitor's page never carries them.
 */
import { FIELD_LIMITS, type TextField } from './contact-wire';
import { searchWithLanguage, type Language } from './languages';

/** Where the form posts without script; a GET of it is the page with the form's answer. */
export const CONTACT_FORM_PATH = '/contact';

/** The hidden field naming the page's language, so the answer is in the visitor's. */
export const LANGUAGE_FIELD = 'language';

/** The query flag of the thank-you page (`/contact?sent=1&type=…`): no typed text is ever in the address. */
export const SENT_PARAM = 'sent';

/** The form's attribute holding the answer's words (JSON, ContactFormTexts). */
export const FORM_TEXTS_ATTRIBUTE = 'data-form-texts';

/** Every sentence the server's answer may show, in one language, the numbers already written in. */
export interface ContactFormTexts {
  /** Under each empty field. */
  required: string;
  /** Above the form when a field is empty. */
  incomplete: string;
  /** The thank-you, without the visitor's name (nothing typed goes into an address). */
  sent: string;
  rateLimited: string;
  busy: string;
  /** A field over its limit or holding what cannot be stored, per field. */
  invalid: Record<TextField, string>;
  /** Anything else the server would refuse again. */
  refused: string;
}

/** The attribute's value at most (JSON), before it is parsed: ten sentences of at most 1,000 characters, escaped. */
const FORM_TEXTS_MAX_CHARS = 16 * 1024;

const KEYS = ['required', 'incomplete', 'sent', 'rateLimited', 'busy', 'refused'] as const;
const FIELDS = Object.keys(FIELD_LIMITS) as TextField[];
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 1000;

/** The texts a form carries, or undefined when the attribute is missing, too long or not exactly this shape. */
export function readFormTexts(value: string | undefined): ContactFormTexts | undefined {
  if (value === undefined || value.length > FORM_TEXTS_MAX_CHARS) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const texts = parsed as Record<string, unknown>;
  const invalid = texts.invalid as Record<string, unknown> | undefined;
  if (!KEYS.every((key) => isText(texts[key])) || typeof invalid !== 'object' || invalid === null) return undefined;
  if (!FIELDS.every((field) => isText(invalid[field]))) return undefined;
  return {
    ...(Object.fromEntries(KEYS.map((key) => [key, texts[key]])) as Record<(typeof KEYS)[number], string>),
    invalid: Object.fromEntries(FIELDS.map((field) => [field, invalid[field]])) as Record<TextField, string>,
  };
}

/** The thank-you's address: a fixed path, the flag and the language, nothing else (no open redirect, nothing typed). */
export function sentLocation(language: Language): string {
  return `${CONTACT_FORM_PATH}${searchWithLanguage(`?${SENT_PARAM}=1`, language)}#contact`;
}
