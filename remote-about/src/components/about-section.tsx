import { fill, useConfig, useText, type SectionProps } from '@portico/shared-config';
import { LegalDisclosures } from './legal-disclosures';
import './about-section.css';

export function AboutSection(_props: SectionProps) {
  const text = useText();
  const { comName, legal } = useConfig();
  return (
    <article className="about-section">
      <h2>{text.about.heading}</h2>
      {/* Always there, so About Us is never an empty box, with or without `legal`. */}
      <p>{fill(text.about.body, { company: comName ?? text.about.unnamedCompany })}</p>
      {legal && <LegalDisclosures legal={legal} />}
    </article>
  );
}
