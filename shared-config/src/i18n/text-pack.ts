/**
 * Every text of the site, per language. Both packs are typed by this
 * interface, so a key missing from one fails the build.
 */
export interface TextPack {
  /** BCP 47 tag for `<html lang>` and for Intl formatting. */
  locale: string;
  money: { currency: string; loanMin: number; loanMax: number; minIncome: number };
  nav: { label: string; tabs: { home: string; about: string; contact: string } };
  /** The first link of the page, for keyboard users: past the navigation to the section shown. */
  skipLink: string;
  /** The accessible name of the group of language links in the nav. */
  languageSwitch: { label: string };
  home: {
    heading: string;
    offer: string;
    eligibility: string;
    /**
     * The user-count claim. `null` where the specification gives the market
     * no such claim: a lender must not advertise a number nobody gave us.
     */
    users: string | null;
    stepsHeading: string;
    steps: readonly [StepText, StepText, StepText];
    bannerAlt: string;
  };
  about: {
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
  };
  contact: {
    heading: string;
    intro: string;
    privacy: string;
    thanks: string;
    name: string;
    telephone: string;
    message: string;
    send: string;
    required: string;
    incomplete: string;
    success: string;
  };
  footer: { companyName: string; email: string; address: string; notConfigured: string };
  sections: { loading: string; failed: string; tryAgain: string; override: string };
  configProblem: string;
  /** The accessible name of the configuration notice. */
  configNoticeLabel: string;
}

export interface StepText {
  title: string;
  text: string;
}
