import { useText, type SectionProps } from '@portico/shared-config';
import './about-section.css';

export function AboutSection(_props: SectionProps) {
  const text = useText();
  return (
    <article className="about-section">
      <h2>{text.about.heading}</h2>
      <p>{text.about.body}</p>
    </article>
  );
}
