import type { TextPack } from './text-pack';

/** English, India. Texts quoted by the specification are kept exactly. */
export const en: TextPack = {
  locale: 'en-IN',
  money: { currency: 'INR', loanMin: 2000, loanMax: 80_000, minIncome: 12_000 },
  nav: { label: 'Sections', tabs: { home: 'Home', about: 'About Us', contact: 'Contact us' } },
  skipLink: 'Skip to content',
  languageSwitch: { label: 'Language' },
  home: {
    heading: 'A personal loan in three steps',
    offer: 'Borrow from {min} to {max}, in your bank account within 2 hours.',
    eligibility: 'For salaried applicants earning {income} or more a month.',
    users: 'Trusted by over 3 million users.',
    stepsHeading: 'How it works',
    steps: [
      { title: 'Apply for a loan', text: 'Choose the amount and the term, in days, that suit you.' },
      { title: 'Complete certification', text: 'Verify your identity with your real name.' },
      { title: 'Complete the loan', text: 'Confirm the loan and the funds are transferred to your bank account.' },
    ],
    bannerAlt: 'A phone showing an approved loan, with coins and a calendar beside it',
  },
  about: {
    heading: 'About Us',
    body: '{company} offers short-term personal loans to salaried people, with a simple online application and clear terms.',
    unnamedCompany: 'This lender',
    legal: {
      heading: 'Company information',
      companyName: 'Legal name',
      registrationNumber: 'Registration number',
      licenceNumber: 'Licence number',
      registeredAddress: 'Registered address',
      website: 'Website',
      phone: 'Phone',
    },
    grievance: {
      heading: 'Complaints',
      intro: 'For a complaint about a loan or about how you were treated, contact our grievance officer:',
      name: 'Grievance officer',
      email: 'E-mail',
      phone: 'Phone',
    },
    regulator: {
      rbiComplaint:
        'If your complaint is not resolved within 30 days, or you are not satisfied with the reply, you can take it to the Reserve Bank of India through its Complaint Management System at {link}.',
      ojkLicensed: '{company} is licensed and supervised by the Financial Services Authority of Indonesia (Otoritas Jasa Keuangan, OJK).',
      ojkContact: "You can also contact OJK's consumer service: call {phone} or visit {link}.",
    },
  },
  contact: {
    heading: 'Contact us',
    intro: 'Leave us your name, your phone number and your question.',
    privacy: 'What you type here stays in your browser: this form does not send it anywhere.',
    thanks: 'Thank you, {name}. Your message is noted on this page; it has not been sent anywhere.',
    name: 'Name',
    telephone: 'Telephone',
    message: 'Message',
    send: 'Send message',
    required: 'Please fill in this field.',
    incomplete: 'Please provide complete information!',
    success: 'Submit successfully！',
  },
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
  },
  configProblem: 'This site is not fully configured, so some details are missing. Fields to fix (the browser console says why):',
  configNoticeLabel: 'Configuration',
};
