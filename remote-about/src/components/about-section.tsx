import { fill, usePortico, type SectionProps } from '@portico/shared-config';
import { marketOf } from '@portico/contract/languages';
import { useAboutText } from '../i18n/use-about-text';
import { LegalDisclosures } from './legal-disclosures';
import './about-section.css';

export function AboutSection(_props: SectionProps) {
  const text = useAboutText();
  const { config, language } = usePortico();
  // Each page is one market's: its own lender, or none (never the other market's).
  const market = marketOf(language);
  const legal = config.legal?.[market];
  return (
    <article className="about-section">
      <h2>{text.heading}</h2>
      {/* Always there, so About Us is never an empty box, with or without a lender. */}
      <p>{fill(text.body, { company: config.comName ?? text.unnamedCompany })}</p>
      {legal && <LegalDisclosures market={market} legal={legal} />}
    </article>
  );
}
