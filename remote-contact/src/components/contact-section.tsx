import { fill, type SectionProps } from '@portico/shared-config';
import { useId, useState, type FormEvent } from 'react';
import { useContactText } from '../i18n/use-contact-text';
import { Toast } from './toast';
import { useToast } from './use-toast';
import './contact-section.css';

type Field = 'name' | 'telephone' | 'message';
const EMPTY: Record<Field, string> = { name: '', telephone: '', message: '' };
const isBlank = (value: string) => value.trim() === '';

/**
 * The contact form of the specification (points 5 and 8): all three fields
 * are required, a field of spaces counts as empty, and nothing is sent over
 * the network. What the visitor typed is kept after a send.
 */
export function ContactSection(_props: SectionProps) {
  const text = useContactText();
  const id = useId();
  const [values, setValues] = useState(EMPTY);
  // The specification's "submitted" flag; the visitor sees it as a thank-you note.
  const [submitted, setSubmitted] = useState(false);
  // After a failed send, each empty field is marked and keeps a message on
  // screen until it is filled: the 1 s toast alone is too short for many people.
  const [checked, setChecked] = useState(false);
  const { toast, show } = useToast();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (Object.values(values).some(isBlank)) {
      setChecked(true);
      show('failure', text.incomplete);
      return;
    }
    setSubmitted(true);
    show('success', text.success);
  };

  const field = (name: Field) => {
    const invalid = checked && isBlank(values[name]);
    return {
      control: {
        id: `${id}-${name}`,
        name,
        value: values[name],
        'aria-invalid': invalid || undefined,
        'aria-describedby': invalid ? `${id}-${name}-error` : undefined,
        onChange: (event: { target: { value: string } }) =>
          setValues((current) => ({ ...current, [name]: event.target.value })),
      },
      error: invalid && (
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
      <p className="contact-section__privacy">{text.privacy}</p>
      <form className="contact-form" noValidate onSubmit={onSubmit}>
        <label htmlFor={name.control.id}>{text.name}</label>
        <input type="text" autoComplete="name" {...name.control} />
        {name.error}
        <label htmlFor={telephone.control.id}>{text.telephone}</label>
        <input type="tel" autoComplete="tel" {...telephone.control} />
        {telephone.error}
        <label htmlFor={message.control.id}>{text.message}</label>
        <textarea rows={5} {...message.control} />
        {message.error}
        <button type="submit" className="button">
          {text.send}
        </button>
      </form>
      {submitted && <p className="contact-section__thanks">{fill(text.thanks, { name: values.name.trim() })}</p>}
      <Toast toast={toast} />
    </article>
  );
}
