import { useDigitsInput, type DigitsInput, type DigitsInputOptions } from './use-digits-input';

export type NumberInputOptions = Omit<DigitsInputOptions, 'groups'>;

/** Digits only, ungrouped. No length limit unless `maxDigits` is given. */
export function useNumberInput(options: NumberInputOptions = {}): DigitsInput {
  return useDigitsInput(options);
}
