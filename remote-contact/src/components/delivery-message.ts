import { fill } from '@portico/shared-config';
import { FIELD_LIMITS } from '@portico/contract/contact-wire';
import type { SendOutcome } from '../api/send-contact-message';
import type { ContactText } from '../i18n/contact-text';

export type Failure = Exclude<SendOutcome, { kind: 'stored' }>;

/** "45 seconds", "10 minutes", "1 menit": Intl's own words and plurals for the page's language. */
function duration(seconds: number, locale: string): string {
  const [value, unit] = seconds <= 90 ? [Math.max(1, seconds), 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/** The lasting sentence that says why a message was not sent, in the visitor's words. */
export function deliveryMessage(failure: Failure, text: ContactText, locale: string): string {
  const { delivery } = text;
  switch (failure.kind) {
    case 'rate-limited': {
      const seconds = failure.retryAfterSeconds;
      return fill(delivery.rateLimited, { wait: seconds === undefined ? delivery.waitAWhile : duration(seconds, locale) });
    }
    case 'invalid':
      return failure.field
        ? fill(delivery.invalidField, {
            field: text[failure.field],
            limit: new Intl.NumberFormat(locale).format(FIELD_LIMITS[failure.field]),
          })
        : delivery.invalid;
    case 'too-long':
      return delivery.tooLong;
    case 'refused':
      return delivery.refused;
    default:
      return delivery[failure.kind];
  }
}
