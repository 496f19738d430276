import type { CalculatorText } from './calculator-text';

/** The calculator's texts in English (India). */
export const en: CalculatorText = {
  heading: 'Repayment calculator',
  illustrative: 'Illustrative figures, not an offer: {rate} interest a day and a {fee} processing fee. Your loan agreement states the terms of your own loan.',
  amount: {
    label: 'Loan amount',
    hint: 'From {min} to {max}.',
    empty: 'Enter a loan amount.',
    notNumber: 'Enter the loan amount in whole rupees, digits only, for example {example}.',
    outOfRange: 'Enter a loan amount from {min} to {max}.',
  },
  days: {
    label: 'Term (days)',
    hint: 'From {min} to {max} days.',
    empty: 'Enter a term in days.',
    notNumber: 'Enter the term as a whole number of days, for example {example}.',
    outOfRange: 'Enter a term from {min} to {max} days.',
  },
  interest: 'Interest',
  fees: 'Fees',
  total: 'Total to repay',
};
