import { fill, fillParts, useConfig, type LegalConfig } from '@portico/shared-config';
import { useAboutText } from '../i18n/use-about-text';
import { DetailList } from './detail-list';
import { ExternalLink } from './external-link';
import { OJK_CONTACT, RBI_COMPLAINTS } from './regulators';

export interface LegalDisclosuresProps {
  legal: LegalConfig;
}

/** `tel:` wants digits and a leading +, not the spaces people write. */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/**
 * Who the lender is and where a borrower can complain: the company's
 * registered details, its grievance officer, then the regulator of
 * `legal.market`. Labels follow the page's language; which regulator is
 * named follows the market. No regulator is ever said to "approve" anything.
 */
export function LegalDisclosures({ legal }: LegalDisclosuresProps) {
  const text = useAboutText();
  const { comName } = useConfig();
  const labels = text.legal;
  const grievance = text.grievance;
  const regulator = text.regulator;
  const officer = legal.grievanceOfficer;

  const company = [
    [labels.companyName, legal.companyName],
    [labels.registrationNumber, legal.registrationNumber],
    [labels.licenceNumber, legal.licenceNumber],
    [labels.registeredAddress, legal.registeredAddress],
    [labels.website, legal.website && <ExternalLink href={legal.website}>{legal.website}</ExternalLink>],
    [labels.phone, legal.phone && <a href={telHref(legal.phone)}>{legal.phone}</a>],
  ] as const;
  const officerDetails = [
    [grievance.name, officer?.name],
    [grievance.email, officer?.email && <a href={`mailto:${officer.email}`}>{officer.email}</a>],
    [grievance.phone, officer?.phone && <a href={telHref(officer.phone)}>{officer.phone}</a>],
  ] as const;
  const hasCompany = company.some(([, value]) => value);
  const hasOfficer = officerDetails.some(([, value]) => value);

  return (
    <>
      {hasCompany && (
        <section className="about-section__block">
          <h3>{labels.heading}</h3>
          <DetailList details={company} />
          {legal.market === 'ID' && legal.licenceNumber && (
            <p>{fill(regulator.ojkLicensed, { company: legal.companyName ?? comName ?? text.unnamedCompany })}</p>
          )}
        </section>
      )}
      {(hasOfficer || legal.market) && (
        <section className="about-section__block">
          <h3>{grievance.heading}</h3>
          {hasOfficer && (
            <>
              <p>{grievance.intro}</p>
              <DetailList details={officerDetails} />
            </>
          )}
          {legal.market === 'IN' && (
            <p>
              {fillParts(regulator.rbiComplaint, {
                link: <ExternalLink href={RBI_COMPLAINTS.url}>{RBI_COMPLAINTS.label}</ExternalLink>,
              })}
            </p>
          )}
          {legal.market === 'ID' && (
            <p>
              {fillParts(regulator.ojkContact, {
                phone: <a href={`tel:${OJK_CONTACT.phone}`}>{OJK_CONTACT.phone}</a>,
                link: <ExternalLink href={OJK_CONTACT.url}>{OJK_CONTACT.label}</ExternalLink>,
              })}
            </p>
          )}
        </section>
      )}
    </>
  );
}
