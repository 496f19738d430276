import { fill, usePortico, type SectionProps } from '@portico/shared-config';
import { localeOf } from '@portico/contract/languages';
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { HONEYPOT_FIELD, type TextField } from '@portico/contract/contact-wire';
import { CONTACT_FORM_PATH, FORM_TEXTS_ATTRIBUTE, LANGUAGE_FIELD } from '@portico/contract/contact-form';
import { useContactText } from '../i18n/use-contact-text';
import { deliveryMessage } from './delivery-message';
import { formTextsOf } from './form-texts';
import { PrivacyNote } from './privacy-note';
import { scrollGently } from './scroll-gently';
import { Toast } from './toast';
import { useSendMessage } from './use-send-message';
import { useToast } from './use-toast';
import './contact-section.css';

type Field = TextField;
const EMPTY: Record<Field, string> = { name: '', telephone: '', message: '' };
const FIELDS = Object.keys(EMPTY) as Field[];
const isBlank = (value: string) => value.trim() === '';

/** The form's text field `name`. */
function fieldOf(form: HTMLFormElement | null, name: Field): HTMLInputElement | HTMLTextAreaElement | undefined {
  const control = form?.elements.namedItem(name);
  return control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement ? control : undefined;
}

/** What is in the fields now. */
const typedValues = (form: HTMLFormElement | null) =>
  Object.fromEntries(FIELDS.map((name) => [name, fieldOf(form, name)?.value ?? ''])) as Record<Field, string>;

/**
 * The contact form of the specification (points 5 and 8): all three fields
 * are required and a field of spaces counts as empty. A complete message is
 * posted to `/api/contact`; the success toast waits for the server to store
 * it, which empties the form and shows the thank-you; any failure keeps what
 * was typed and says why until the next send.
 *
 * The fields are not controlled: React writes a controlled input's value
 * into its `value` attribute at each keystroke, where any stylesheet on the
 * page can match it (`[value$="9"]`, issue 46). The state follows what is
 * typed; the fields are written only to empty them after a delivery.
 */
export function ContactSection(_props: SectionProps) {
  const text = useContactText();
  const { language } = usePortico();
  const id = useId();
  const [values, setValues] = useState(EMPTY);
  // After a failed send, each empty field is marked and keeps a message on
  // screen until it is filled: the 1 s toast alone is too short for many people.
  const [checked, setChecked] = useState(false);
  const { toast, show } = useToast();
  const { sending, last, send } = useSendMessage();
  const trap = useRef<HTMLInputElement>(null);
  const sendButton = useRef<HTMLButtonElement>(null);
  const focusedAtSend = useRef<Element | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const thanks = useRef<HTMLParagraphElement>(null);

  // Hydrating the server's HTML: what was typed before (the fields work
  // without this code, and a language switch fills them in again) is in the
  // fields, not in the state React hydrated with. React keeps a field's value
  // as it finds it; the state takes it over here, before the first paint and
  // before a submit held by the page's script is made again.
  useLayoutEffect(() => {
    const typed = typedValues(form.current);
    if (FIELDS.some((name) => typed[name] !== '')) setValues(typed);
  }, []);

  const deliver = async () => {
    if (Object.values(values).some(isBlank)) {
      setChecked(true);
      show('failure', text.incomplete);
      return;
    }
    focusedAtSend.current = document.activeElement;
    const sent = values;
    const outcome = await send({ ...sent, language, [HONEYPOT_FIELD]: trap.current?.value ?? '' });
    if (!outcome) return;
    if (outcome.kind !== 'stored') {
      show('failure', text.notSent);
      return;
    }
    show('success', text.success);
    // Delivered, so the form is empty again: nothing to send twice, and
    // nothing for a language switch to carry to the next page. A field
    // changed while it was sending keeps the change.
    const current = typedValues(form.current);
    const next = Object.fromEntries(FIELDS.map((name) => [name, current[name] === sent[name] ? '' : current[name]])) as Record<Field, string>;
    for (const name of FIELDS) if (next[name] === '') fieldOf(form.current, name)!.value = '';
    setValues(next);
    setChecked(false);
  };

  // The thank-you is the answer to the send: on screen, clear of the header
  // and with the toast below it (its scroll margins), not below the fold of a phone.
  const storedAttempt = last?.outcome.kind === 'stored' ? last.attempt : undefined;
  useEffect(() => {
    if (storedAttempt !== undefined) scrollGently(thanks.current);
  }, [storedAttempt]);

  // A button that was disabled while sending, or a Try again that went with
  // its alert, may have dropped the focus to the page: give it back.
  useEffect(() => {
    if (sending || !focusedAtSend.current) return;
    const before = focusedAtSend.current;
    focusedAtSend.current = null;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const target = before instanceof HTMLElement && before.isConnected ? before : sendButton.current;
    target?.focus();
  }, [sending]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void deliver();
  };

  const failure = last && last.outcome.kind !== 'stored' ? last.outcome : null;
  // A field the server refused stays marked until the visitor changes it.
  const refused = failure?.kind === 'invalid' && failure.field && values[failure.field] === last?.draft[failure.field] ? failure.field : null;
  const alertId = `${id}-delivery`;

  const field = (name: Field) => {
    const empty = checked && isBlank(values[name]);
    const invalid = empty || refused === name;
    const describedBy = empty ? `${id}-${name}-error` : refused === name ? alertId : undefined;
    return {
      control: {
        id: `${id}-${name}`,
        name,
        'aria-invalid': invalid || undefined,
        'aria-describedby': describedBy,
        onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
      },
      error: empty && (
        <p id={`${id}-${name}-error`} className="contact-form__error">
          {text.required}
        </p>
      ),
    };
  };
  const name = field('name');
  const telephone = field('telephone');
  const message = field('message');

  return (
    <article className="contact-section">
      <h2>{text.heading}</h2>
      <p>{text.intro}</p>
      {/* Without script the form posts itself (form-encoded, never in the
          address) and the server answers with this page, in the words the
          form carries; with script, onSubmit sends JSON instead. */}
      <form
        ref={form}
        id={`${id}-form`}
        className="contact-form"
        method="post"
        action={`${CONTACT_FORM_PATH}#contact`}
        noValidate
        onSubmit={onSubmit}
        {...{ [FORM_TEXTS_ATTRIBUTE]: JSON.stringify(formTextsOf(text, localeOf(language))) }}
      >
        <input type="hidden" name={LANGUAGE_FIELD} value={language} />
        <label htmlFor={name.control.id}>{text.name}</label>
        <input type="text" autoComplete="name" {...name.control} />
        {name.error}
        <label htmlFor={telephone.control.id}>{text.telephone}</label>
        <input type="tel" autoComplete="tel" {...telephone.control} />
        {telephone.error}
        <label htmlFor={message.control.id}>{text.message}</label>
        <textarea rows={5} {...message.control} />
        {message.error}
        {/* Off screen and out of the tab order; only a bot that fills every input fills it. */}
        <div className="contact-form__trap" aria-hidden="true">
          <label htmlFor={`${id}-${HONEYPOT_FIELD}`}>{text.trap}</label>
          <input ref={trap} id={`${id}-${HONEYPOT_FIELD}`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        {/* Enabled in the server's HTML: without script it posts the form to
            the server; with it, the page's script holds a submit until this
            form is hydrated. */}
        <button ref={sendButton} type="submit" className="button contact-form__send" disabled={sending} aria-busy={sending || undefined}>
          {sending && <span className="contact-form__spinner" aria-hidden="true" />}
          {text.send}
        </button>
        {failure && (
          <div id={alertId} role="alert" className="contact-form__delivery">
            {/* A new key per send: the same reason after a retry is announced again. */}
            <p key={last?.attempt}>{deliveryMessage(failure, text, localeOf(language))}</p>
            <button type="button" className="button contact-form__retry" disabled={sending} onClick={() => void deliver()}>
              {text.retry}
            </button>
          </div>
        )}
      </form>
      {last?.outcome.kind === 'stored' && (
        <p ref={thanks} className="contact-section__thanks">
          {fill(text.thanks, { name: last.draft.name.trim() })}
        </p>
      )}
      {/* Below the form and the thank-you, in room of its own: it covers nothing. */}
      <Toast toast={toast} />
      <PrivacyNote text={text} language={language} />
    </article>
  );
}
