/**
 * Every text of the site, per language. Both packs are typed by this
 * interface, so a key missing from one fails the build.
 */
export interface TextPack {
  /** BCP 47 tag for `<html lang>` and for Intl formatting. */
  locale: string;
  money: { currency: string; loanMin: number; loanMax: number; minIncome: number };
  nav: { label: string; tabs: { home: string; about: string; contact: string } };
  home: {
    heading: string;
    offer: string;
    eligibility: string;
    users: string;
    stepsHeading: string;
    steps: readonly [StepText, StepText, StepText];
    bannerAlt: string;
  };
  about: { heading: string; body: string; unnamedCompany: string };
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
}

export interface StepText {
  title: string;
  text: string;
}
