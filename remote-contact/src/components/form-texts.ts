import type { ContactFormTexts } from '@portico/contract/contact-form';
import { FIELD_LIMITS, type TextField } from '@portico/contract/contact-wire';
import type { ContactText } from '../i18n/contact-text';
import { deliveryMessage } from './delivery-message';

/**
 * The words the server's answer to the form without JavaScript shows, in
 * this page's language: the same sentences the form shows with script, so
 * both ways read alike. The form carries them (FORM_TEXTS_ATTRIBUTE) because
 * they are this section's copy, not the server's.
 */
export function formTextsOf(text: ContactText, locale: string): ContactFormTexts {
  const fields = Object.keys(FIELD_LIMITS) as TextField[];
  return {
    required: text.required,
    incomplete: text.incomplete,
    sent: text.thanksWithoutName,
    rateLimited: deliveryMessage({ kind: 'rate-limited' }, text, locale),
    busy: deliveryMessage({ kind: 'busy' }, text, locale),
    invalid: Object.fromEntries(fields.map((field) => [field, deliveryMessage({ kind: 'invalid', field }, text, locale)])) as Record<TextField, string>,
    refused: deliveryMessage({ kind: 'refused', status: 403 }, text, locale),
  };
}
