import type { Market } from '@portico/contract/languages';

/**
 * A market's loan terms, as this calculator uses them. ILLUSTRATIVE: round
 * figures of the order such loans carry, not the lender's terms (which its
 * loan agreement states); the page says so next to the form. Kept in this
 * package so the team changes them with its own deploy.
 */
export interface LoanTerms {
  /** ISO 4217 code every amount is in. */
  currency: string;
  /** Interest per day, as a fraction of the amount (0.001 is 0.1 % a day). */
  dailyRate: number;
  /** The one-off processing fee, as a fraction of the amount. */
  feeRate: number;
  amount: { min: number; max: number };
  days: { min: number; max: number };
  /** What the form shows before anyone types: a result even without script. */
  example: { amount: number; days: number };
}

export const TERMS: Readonly<Record<Market, LoanTerms>> = {
  IN: {
    currency: 'INR',
    dailyRate: 0.001,
    feeRate: 0.02,
    amount: { min: 2000, max: 80_000 },
    days: { min: 7, max: 180 },
    example: { amount: 10_000, days: 30 },
  },
  ID: {
    currency: 'IDR',
    dailyRate: 0.003,
    feeRate: 0.01,
    amount: { min: 1_000_000, max: 15_000_000 },
    days: { min: 7, max: 180 },
    example: { amount: 3_000_000, days: 30 },
  },
};

/** What a loan costs, in whole units of the market's currency. */
export interface Repayment {
  interest: number;
  fees: number;
  total: number;
}

/** Interest and fee, each rounded to a whole unit once, and their sum with the amount. */
export function repaymentOf(amount: number, days: number, terms: LoanTerms): Repayment {
  const interest = Math.round(amount * terms.dailyRate * days);
  const fees = Math.round(amount * terms.feeRate);
  return { interest, fees, total: amount + interest + fees };
}

/** Why a field's text is not a value the terms allow. */
export type InputProblem = 'empty' | 'notNumber' | 'outOfRange';

/**
 * A field's text as a whole number within `bounds`, or why not. Spaces and
 * the market's digit-group separator (`separator`: `,` in India, `.` in
 * Indonesia; none for a count of days) are allowed, so `10,000` and
 * `1.000.000` read as typed; anything else (a decimal, a sign, a letter) is
 * not a number.
 */
export function readWholeNumber(text: string, bounds: { min: number; max: number }, separator?: string): number | InputProblem {
  const compact = text.replace(/\s/g, '');
  if (compact === '') return 'empty';
  const digits = separator ? compact.split(separator).join('') : compact;
  if (!/^\d+$/.test(digits) || (separator && (compact.startsWith(separator) || compact.endsWith(separator)))) return 'notNumber';
  const value = Number(digits);
  return value < bounds.min || value > bounds.max ? 'outOfRange' : value;
}
