/** Every text of the about section, per language; both packs are typed by it. */
export interface AboutText {
  heading: string;
  body: string;
  unnamedCompany: string;
  /** Labels of the lender's disclosures (config.json `legal`). */
  legal: {
    heading: string;
    companyName: string;
    registrationNumber: string;
    licenceNumber: string;
    registeredAddress: string;
    website: string;
    phone: string;
  };
  grievance: {
    heading: string;
    intro: string;
    name: string;
    email: string;
    phone: string;
  };
  /**
   * What each market's regulator offers a borrower, written in this pack's
   * language; which one shows follows `legal.market`, not the language.
   */
  regulator: {
    /** India: `{link}` is the RBI's complaint management system. */
    rbiComplaint: string;
    /** Indonesia, only with a licence number: `{company}` is the legal name. */
    ojkLicensed: string;
    /** Indonesia: `{phone}` is OJK's 157 line, `{link}` its contact site. */
    ojkContact: string;
  };
}
