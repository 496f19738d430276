import { useConfig, useText } from '@portico/shared-config';

export function SiteFooter() {
  const { comName, email, address, copyright } = useConfig();
  const text = useText();
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
        </dl>
        {copyright && <p className="site-footer__copyright">{copyright}</p>}
      </div>
    </footer>
  );
}
