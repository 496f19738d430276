import type { TextPack } from './text-pack';

/** The host's texts in English (India). Texts quoted by the specification are kept exactly. */
export const en: TextPack = {
  siteName: 'Personal loans',
  metaDescription:
    'Instant personal loans for salaried people: apply online, verify your identity and receive the funds in your bank account.',
  nav: { label: 'Sections', tabs: { home: 'Home', about: 'About Us', contact: 'Contact us' } },
  skipLink: 'Skip to content',
  languageSwitch: { label: 'Language' },
  footer: {
    companyName: 'Company Name',
    email: 'Contact Email',
    address: 'Contact Address',
    notConfigured: 'Not configured',
  },
  sections: {
    loading: 'Loading {section}…',
    failed: 'The {section} section could not be loaded.',
    tryAgain: 'Try again',
    override: 'Testing override: the {section} section comes from {url} for this visit only.',
    overrideLabel: 'Remote override',
    preview: 'Release preview: the {section} section is release {release} (build {build}), for this visit only; visitors get the active release. The link expires {expires}.',
    previewLabel: 'Release preview',
    previewExpired: 'This release preview link has expired: you are seeing the live site.',
    previewInvalid: 'This release preview link is not valid: you are seeing the live site.',
  },
  configProblem: 'This site is not fully configured, so some details are missing. Fields to fix (the browser console says why):',
  configNoticeLabel: 'Configuration',
};
