import { fill, useText, type SectionProps } from '@portico/shared-config';
import { useId, useState, type FormEvent } from 'react';
import { Toast } from './toast';
import { useToast } from './use-toast';
import './contact-section.css';

type Field = 'name' | 'telephone' | 'message';
const EMPTY: Record<Field, string> = { name: '', telephone: '', message: '' };

/**
 * The contact form of the specification (points 5 and 8): all three fields
 * are required, a field of spaces counts as empty, and nothing is sent over
 * the network. What the visitor typed is kept after a send.
 */
export function ContactSection(_props: SectionProps) {
  const text = useText();
  const id = useId();
  const [values, setValues] = useState(EMPTY);
  // The specification's "submitted" flag; the visitor sees it as a thank-you note.
  const [submitted, setSubmitted] = useState(false);
  const { toast, show } = useToast();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const complete = Object.values(values).every((value) => value.trim() !== '');
    if (!complete) {
      show('failure', text.contact.incomplete);
      return;
    }
    setSubmitted(true);
    show('success', text.contact.success);
  };

  const field = (name: Field) => ({
    id: `${id}-${name}`,
    name,
    value: values[name],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <article className="contact-section">
      <h2>{text.contact.heading}</h2>
      <p>{text.contact.intro}</p>
      <p className="contact-section__privacy">{text.contact.privacy}</p>
      <form className="contact-form" noValidate onSubmit={onSubmit}>
        <label htmlFor={`${id}-name`}>{text.contact.name}</label>
        <input type="text" autoComplete="name" {...field('name')} />
        <label htmlFor={`${id}-telephone`}>{text.contact.telephone}</label>
        <input type="tel" autoComplete="tel" {...field('telephone')} />
        <label htmlFor={`${id}-message`}>{text.contact.message}</label>
        <textarea rows={5} {...field('message')} />
        <button type="submit" className="button">
          {text.contact.send}
        </button>
      </form>
      {submitted && <p className="contact-section__thanks">{fill(text.contact.thanks, { name: values.name.trim() })}</p>}
      <Toast toast={toast} />
    </article>
  );
}
