import { fill, useConfig, useText, type SectionProps } from '@portico/shared-config';
import './about-section.css';

export function AboutSection(_props: SectionProps) {
  const text = useText();
  const { comName } = useConfig();
  return (
    <article className="about-section">
      <h2>{text.about.heading}</h2>
      <p>{fill(text.about.body, { company: comName ?? text.about.unnamedCompany })}</p>
    </article>
  );
}
