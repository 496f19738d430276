import { DigitsField, type DigitsFieldProps } from './digits-field';
import { useBankCardInput } from './use-bank-card-input';

export interface BankCardInputProps extends DigitsFieldProps {
  /** The most digits accepted; no limit by default. */
  maxDigits?: number;
}

/** A bank card number field of the component set: digits only, in groups of four. */
export function BankCardInput({ defaultValue, onValueChange, maxDigits, ...props }: BankCardInputProps) {
  const { inputRef, value, onChange } = useBankCardInput({ defaultValue, onValueChange, maxDigits });
  return <DigitsField autoComplete="cc-number" {...props} inputRef={inputRef} value={value} onChange={onChange} type="text" />;
}
