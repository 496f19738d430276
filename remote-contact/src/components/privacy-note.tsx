import { fill, fillParts, formatWholeNumber, useConfig } from '@portico/shared-config';
import { localeOf, marketOf, type Language } from '@portico/contract/languages';
import type { ContactText } from '../i18n/contact-text';

/** What the server applies when config.json sets no `contact.retentionDays`. */
const DEFAULT_RETENTION_DAYS = 180;

export interface PrivacyNoteProps {
  text: ContactText;
  language: Language;
}

/**
 * What is kept, why, for how long and whom to ask to delete it, from the
 * same config.json the server reads its retention period from. The grievance
 * officer of the page's market, when its block of `legal` names one, handles
 * deletion requests; otherwise the site's own e-mail.
 */
export function PrivacyNote({ text, language }: PrivacyNoteProps) {
  const { email, legal, contact } = useConfig();
  const days = contact?.retentionDays ?? DEFAULT_RETENTION_DAYS;
  // From the pack, not Intl's units: the note hydrates with the page, and
  // the first use of Intl costs a phone over 100 ms (see formatMoney).
  const period = fill(days === 1 ? text.retentionPeriod.one : text.retentionPeriod.other, { days: formatWholeNumber(days, localeOf(language)) });
  const officer = legal?.[marketOf(language)]?.grievanceOfficer;
  const mail = (address: string) => <a href={`mailto:${address}`}>{address}</a>;

  const ask =
    officer?.name && officer.email
      ? fillParts(text.privacyDeleteOfficer, { officer: officer.name, email: mail(officer.email) })
      : email
        ? fillParts(text.privacyDelete, { email: mail(email) })
        : text.privacyDeleteHere;

  return (
    <p className="contact-section__privacy">
      {fill(text.privacy, { period })} {ask}
    </p>
  );
}
