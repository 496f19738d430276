import type { AboutText } from './about-text';

/** The about section's texts in English: the India page. Texts quoted by the specification are kept exactly. */
export const en: AboutText = {
  heading: 'About Us',
  body: '{company} offers short-term personal loans to salaried people, with a simple online application and clear terms.',
  unnamedCompany: 'This lender',
  legal: {
    heading: 'Company information',
    companyName: 'Legal name',
    registrationNumber: 'Corporate identity number (CIN)',
    licenceNumber: 'RBI certificate of registration',
    registeredAddress: 'Registered address',
    association: 'Industry association',
    website: 'Website',
    phone: 'Phone',
  },
  grievance: {
    heading: 'Complaints',
    intro: 'For a complaint about a loan or about how you were treated, contact our grievance redressal officer first:',
    name: 'Grievance redressal officer',
    email: 'E-mail',
    phone: 'Phone',
  },
  regulator: {
    licensed: '{company} holds a certificate of registration from the Reserve Bank of India.',
    escalation:
      'If your complaint is not resolved within 30 days, or you are not satisfied with the reply, you can take it to the Reserve Bank of India through its Complaint Management System at {link}.',
  },
};
