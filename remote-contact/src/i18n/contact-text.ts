/** Why a message was not sent, each a whole sentence or two that end by saying the text is kept. */
interface DeliveryText {
  offline: string;
  timeout: string;
  busy: string;
  /** `{wait}`: how long to wait, e.g. "10 minutes" (Intl's units) or `waitAWhile`. */
  rateLimited: string;
  waitAWhile: string;
  /** `{field}`: the field's label; `{limit}`: its limit in characters. */
  invalidField: string;
  invalid: string;
  tooLong: string;
  conflict: string;
  refused: string;
  unavailable: string;
}

/** Every text of the contact section, per language; both packs are typed by it. */
export interface ContactText {
  heading: string;
  intro: string;
  /** What is kept, why and for how long; `{period}` is `retentionPeriod`, e.g. "180 days". */
  privacy: string;
  /** `{days}` days, for one day and for any other number (Indonesian says both alike). */
  retentionPeriod: { one: string; other: string };
  /** Whom to ask for deletion: the config's e-mail, */
  privacyDelete: string;
  /** or the grievance officer when `legal.grievanceOfficer` names one, */
  privacyDeleteOfficer: string;
  /** or, with neither, this form. */
  privacyDeleteHere: string;
  thanks: string;
  /** The thank-you of the form sent without JavaScript: its page's address carries no typed text, so no name. */
  thanksWithoutName: string;
  name: string;
  telephone: string;
  message: string;
  send: string;
  required: string;
  incomplete: string;
  success: string;
  /** The label of the hidden field only bots fill, read by nobody but a page without its CSS. */
  trap: string;
  /** The 1 s failure toast of a send that did not deliver. */
  notSent: string;
  retry: string;
  delivery: DeliveryText;
}
