import { copyrightIn, usePortico } from '@portico/shared-config';
import { marketOf } from '@portico/contract/languages';

export function SiteFooter() {
  const { config, language, text } = usePortico();
  const { comName, email, address } = config;
  const copyright = copyrightIn(config, language);
  // The page is one market's: its lender, or none (never the other market's).
  const lender = config.legal?.[marketOf(language)]?.companyName;
  const missing = <span className="not-configured">{text.footer.notConfigured}</span>;
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <dl className="site-footer__details">
          <div>
            <dt>{text.footer.companyName}</dt>
            <dd>{comName ?? missing}</dd>
          </div>
          <div>
            <dt>{text.footer.email}</dt>
            <dd>{email ? <a href={`mailto:${email}`}>{email}</a> : missing}</dd>
          </div>
          <div>
            <dt>{text.footer.address}</dt>
            <dd>{address ?? missing}</dd>
          </div>
          {lender && (
            <div>
              <dt>{text.footer.lender}</dt>
              <dd>{lender}</dd>
            </div>
          )}
        </dl>
        {copyright && <p className="site-footer__copyright">{copyright}</p>}
        {/* The host's own statement, in the page's language; #privacy links to it. */}
        <details className="site-footer__privacy" id="privacy">
          <summary>{text.footer.privacy.summary}</summary>
          <p>{text.footer.privacy.measurement}</p>
          <p>{text.footer.privacy.address}</p>
          <p>{text.footer.privacy.cookie}</p>
        </details>
      </div>
    </footer>
  );
}
