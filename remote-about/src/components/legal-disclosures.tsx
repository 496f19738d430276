import { fill, fillParts, type LegalConfig } from '@portico/shared-config';
import type { Market } from '@portico/contract/languages';
import { useAboutText } from '../i18n/use-about-text';
import { DetailList } from './detail-list';
import { ExternalLink } from './external-link';
import { REGULATOR_CHANNEL } from './regulators';

export interface LegalDisclosuresProps {
  /** The market this page is for (it follows the language). */
  market: Market;
  /** That market's lender: its block of config.json's `legal`, valid fields only. */
  legal: LegalConfig;
}

/** `tel:` wants digits and a leading +, not the spaces people write. */
const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/**
 * Who lends to this market's borrowers and where they can complain: the
 * company's registered details, its grievance officer first, then the
 * market's regulator (India: the RBI's Complaint Management System;
 * Indonesia: OJK's consumer service), whose words are this market's
 * language pack. No regulator is ever said to "approve" anything.
 */
export function LegalDisclosures({ market, legal }: LegalDisclosuresProps) {
  const text = useAboutText();
  const labels = text.legal;
  const grievance = text.grievance;
  const channel = REGULATOR_CHANNEL[market];
  const officer = legal.grievanceOfficer;

  const company = [
    [labels.companyName, legal.companyName],
    [labels.registrationNumber, legal.registrationNumber],
    [labels.licenceNumber, legal.licenceNumber],
    [labels.registeredAddress, legal.registeredAddress],
    [labels.association, legal.association],
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
          {/* Only with a licence number is the lender said to hold one. */}
          {legal.licenceNumber && legal.companyName && <p>{fill(text.regulator.licensed, { company: legal.companyName })}</p>}
        </section>
      )}
      <section className="about-section__block">
        <h3>{grievance.heading}</h3>
        {hasOfficer && (
          <>
            <p>{grievance.intro}</p>
            <DetailList details={officerDetails} />
          </>
        )}
        <p>
          {fillParts(text.regulator.escalation, {
            link: <ExternalLink href={channel.url}>{channel.label}</ExternalLink>,
            phone: channel.phone && <a href={`tel:${channel.phone}`}>{channel.phone}</a>,
          })}
        </p>
      </section>
    </>
  );
}
