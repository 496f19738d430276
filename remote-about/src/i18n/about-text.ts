/** Every text of the about section, per language; both packs are typed by it. */
export interface AboutText {
  heading: string;
  body: string;
  unnamedCompany: string;
  /**
   * Labels of the lender's disclosures (this market's block of config.json's
   * `legal`), named as this market's rules name them: each language is one
   * market's page.
   */
  legal: {
    heading: string;
    companyName: string;
    registrationNumber: string;
    licenceNumber: string;
    registeredAddress: string;
    association: string;
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
   * This market's regulator, fixed text (English: India's RBI; Indonesian:
   * Indonesia's OJK): nothing of it comes from config.json.
   */
  regulator: {
    /** Only with a licence number: `{company}` is the legal name. */
    licensed: string;
    /**
     * The borrower's path after the lender's own: `{link}` is the
     * regulator's complaint channel, `{phone}` its phone line where it has one.
     */
    escalation: string;
  };
}
