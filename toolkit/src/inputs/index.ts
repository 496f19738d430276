// Input behaviours of the wider app's component set (specification, point 5).
// They are component defaults, not product rules: the site's contact form
// checks no phone format and must not use them.
export { BankCardInput, type BankCardInputProps } from './bank-card-input';
export type { DigitsFieldProps } from './digits-field';
export { caretAfterDigits, groupDigits, keepDigits } from './digits';
export { NumberInput, type NumberInputProps } from './number-input';
export { PhoneInput, type PhoneInputProps } from './phone-input';
export { BANK_CARD_GROUPS, useBankCardInput, type BankCardInputOptions } from './use-bank-card-input';
export { useDigitsInput, type DigitsInput, type DigitsInputOptions } from './use-digits-input';
export { useNumberInput, type NumberInputOptions } from './use-number-input';
export { PHONE_GROUPS, PHONE_MAX_DIGITS, usePhoneInput, type PhoneInputOptions } from './use-phone-input';
