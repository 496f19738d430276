import { fill, formatMoney, useText, type SectionProps } from '@portico/shared-config';
import { HomeBanner } from './home-banner';
import './home-section.css';

export function HomeSection(_props: SectionProps) {
  const text = useText();
  const money = (amount: number) => formatMoney(amount, text.locale, text.money.currency);
  return (
    <article className="home-section">
      <div className="home-hero">
        <div className="home-hero__copy">
          <h2>{text.home.heading}</h2>
          <p className="home-hero__offer">
            {fill(text.home.offer, { min: money(text.money.loanMin), max: money(text.money.loanMax) })}
          </p>
          <p>{fill(text.home.eligibility, { income: money(text.money.minIncome) })}</p>
          {text.home.users && <p className="home-hero__users">{text.home.users}</p>}
        </div>
        <HomeBanner label={text.home.bannerAlt} />
      </div>
      <h3>{text.home.stepsHeading}</h3>
      <ol className="home-steps">
        {text.home.steps.map((step, index) => (
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
