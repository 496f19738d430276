import { fill, type SectionProps } from '@portico/shared-config';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useTexts } from '../i18n/use-texts';
import './section-view.css';

/**
 * The section: rendered on the server, hydrated (an island) once a visitor
 * uses it. The field is not controlled: a controlled input writes each
 * keystroke into its `value` attribute, where a stylesheet on the page could
 * match it; the state follows what is typed.
 */
export function SectionView(_props: SectionProps) {
  const text = useTexts();
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');

  // Hydrating the server's HTML on the first use: what was typed before the
  // code arrived is in the field, not in the state React hydrated with.
  useLayoutEffect(() => {
    if (field.current?.value) setName(field.current.value);
  }, []);

  return (
    <article className="__SECTION_ID__-section">
      <h2>{text.heading}</h2>
      <p>{text.intro}</p>
      <label htmlFor={`${id}-name`}>{text.nameLabel}</label>
      <input ref={field} id={`${id}-name`} name="name" type="text" autoComplete="off" onChange={(event) => setName(event.target.value)} />
      <p role="status">{name.trim() && fill(text.greeting, { name: name.trim() })}</p>
    </article>
  );
}
