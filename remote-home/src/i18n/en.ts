import type { HomeText } from './home-text';

/** The home section's texts in English (India). Texts quoted by the specification are kept exactly. */
export const en: HomeText = {
  money: { currency: 'INR', loanMin: 2000, loanMax: 80_000, minIncome: 12_000 },
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
};
