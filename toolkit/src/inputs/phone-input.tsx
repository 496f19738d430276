import { DigitsField, type DigitsFieldProps } from './digits-field';
import { usePhoneInput } from './use-phone-input';

export type PhoneInputProps = DigitsFieldProps;

/**
 * A phone field of the component set: digits only, at most 11, shown 3-4-4.
 * A component default, not a product rule: the contact form checks no phone
 * format (specification, point 5) and must not use it.
 */
export function PhoneInput({ defaultValue, onValueChange, ...props }: PhoneInputProps) {
  const { inputRef, value, onChange } = usePhoneInput({ defaultValue, onValueChange });
  return <DigitsField autoComplete="tel" {...props} inputRef={inputRef} value={value} onChange={onChange} type="tel" />;
}
