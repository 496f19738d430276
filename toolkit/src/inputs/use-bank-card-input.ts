import { useDigitsInput, type DigitsInput, type DigitsInputOptions } from './use-digits-input';

export const BANK_CARD_GROUPS: readonly number[] = [4];

export type BankCardInputOptions = Omit<DigitsInputOptions, 'groups'>;

/** Digits only, in groups of four: "6222 0212 3456 7890". No length limit unless `maxDigits` is given. */
export function useBankCardInput(options: BankCardInputOptions = {}): DigitsInput {
  return useDigitsInput({ ...options, groups: BANK_CARD_GROUPS });
}
