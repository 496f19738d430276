import { DigitsField, type DigitsFieldProps } from './digits-field';
import { useNumberInput } from './use-number-input';

export interface NumberInputProps extends DigitsFieldProps {
  /** The most digits accepted; no limit by default. */
  maxDigits?: number;
}

/** A number field of the component set: digits only, nothing else, not even a sign or a point. */
export function NumberInput({ defaultValue, onValueChange, maxDigits, ...props }: NumberInputProps) {
  const { inputRef, value, onChange } = useNumberInput({ defaultValue, onValueChange, maxDigits });
  return <DigitsField {...props} inputRef={inputRef} value={value} onChange={onChange} type="text" />;
}
