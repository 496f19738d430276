import { fill, useConfig, type SectionProps } from '@portico/shared-config';
import { useAboutText } from '../i18n/use-about-text';
import { LegalDisclosures } from './legal-disclosures';
import './about-section.css';

export function AboutSection(_props: SectionProps) {
  const text = useAboutText();
  const { comName, legal } = useConfig();
  return (
    <article className="about-section">
      <h2>{text.heading}</h2>
      {/* Always there, so About Us is never an empty box, with or without `legal`. */}
      <p>{fill(text.body, { company: comName ?? text.unnamedCompany })}</p>
      {legal && <LegalDisclosures legal={legal} />}
    </article>
  );
}
