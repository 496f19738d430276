import { useDigitsInput, type DigitsInput, type DigitsInputOptions } from './use-digits-input';

/** A component default of the wider app's component set (specification, point 5), not a rule of any form. */
export const PHONE_MAX_DIGITS = 11;
export const PHONE_GROUPS: readonly number[] = [3, 4, 4];

export type PhoneInputOptions = Omit<DigitsInputOptions, 'maxDigits' | 'groups'>;

/** Digits only, at most 11, shown 3-4-4: "138 1234 5678". */
export function usePhoneInput(options: PhoneInputOptions = {}): DigitsInput {
  return useDigitsInput({ ...options, maxDigits: PHONE_MAX_DIGITS, groups: PHONE_GROUPS });
}
