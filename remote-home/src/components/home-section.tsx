import { fill, formatMoney, usePortico, type SectionProps } from '@portico/shared-config';
import { localeOf } from '@portico/contract/languages';
import { useHomeText } from '../i18n/use-home-text';
import { HomeBanner } from './home-banner';
import './home-section.css';

export function HomeSection(_props: SectionProps) {
  const text = useHomeText();
  const locale = localeOf(usePortico().language);
  const money = (amount: number) => formatMoney(amount, locale, text.money.currency);
  return (
    <article className="home-section">
      <div className="home-hero">
        <div className="home-hero__copy">
          <h2>{text.heading}</h2>
          <p className="home-hero__offer">{fill(text.offer, { min: money(text.money.loanMin), max: money(text.money.loanMax) })}</p>
          <p>{fill(text.eligibility, { income: money(text.money.minIncome) })}</p>
          {text.users && <p className="home-hero__users">{text.users}</p>}
        </div>
        <HomeBanner label={text.bannerAlt} />
      </div>
      <h3>{text.stepsHeading}</h3>
      <ol className="home-steps">
        {text.steps.map((step, index) => (
          <li key={step.title} className="home-steps__step">
            <span className="home-steps__number" aria-hidden="true">
              {index + 1}
            </span>
            <h4>{step.title}</h4>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
    </article>
  );
}
