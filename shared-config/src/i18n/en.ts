import { sectionsEn } from './sections-en';
import type { TextPack } from './text-pack';

/** The host's texts in English (India). Texts quoted by the specification are kept exactly. */
export const en: TextPack = {
  siteName: 'Personal loans',
  metaDescription: 'Instant personal loans for salaried people: apply online, verify your identity and receive the funds in your bank account.',
  nav: { label: 'Sections', tabs: { home: 'Home', about: 'About Us', contact: 'Contact us' } },
  skipLink: 'Skip to content',
  languageSwitch: { label: 'Language' },
  footer: {
    companyName: 'Company Name',
    email: 'Contact Email',
    address: 'Contact Address',
    lender: 'Lender',
    notConfigured: 'Not configured',
    privacy: {
      summary: 'Privacy: what this site measures',
      measurement:
        'When you leave a page, it sends an anonymous report of how its sections loaded and how fast it was (Core Web Vitals). The report holds no name, no address and nothing that identifies you, only a one-time number our server gave that page load, which is kept until it expires (an hour) so that the report counts once; only totals per release and hour are kept, for 30 days unless the operator sets otherwise.',
      address:
        'To stop anyone flooding these totals, each of our servers counts at most 30 reports from one network address in 10 minutes (so with several servers, that many times more). While a new version of a section is tried, the reports that decide it are also counted per network, so that no single network can decide it: the network is kept only as a keyed code that cannot be turned back into it, only for that trial, and deleted when the trial ends. That is processing of personal data under India’s DPDP Act and Indonesia’s UU PDP, even though the address itself is held in memory for minutes only and never stored.',
      cookie:
        'While a new version of a section is tried with some visitors, this site sets one cookie, portico_cohort, holding only a random number from 0 to 99, so you see the same version on each visit. It lasts 30 days. Messages sent with the contact form are covered by the note beside it.',
    },
  },
  sections: sectionsEn,
  configProblem: 'This site is not fully configured, so some details are missing. The configuration could not be read (the browser console says why):',
  configNoticeLabel: 'Configuration',
};
