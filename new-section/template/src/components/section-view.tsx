import type { SectionProps } from '@portico/shared-config';
import { useTexts } from '../i18n/use-texts';
import './section-view.css';

/** The section: rendered on the server, never hydrated (static), so it ships no script to the visitor. */
export function SectionView(_props: SectionProps) {
  const text = useTexts();
  return (
    <article className="__SECTION_ID__-section">
      <h2>{text.heading}</h2>
      <p>{text.intro}</p>
    </article>
  );
}
