import type { AboutText } from './about-text';

/** The about section's texts in English (India). Texts quoted by the specification are kept exactly. */
export const en: AboutText = {
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
};
