import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import type { DigitsInput } from './use-digits-input';

/** Props every digits component takes; the rest go to the <input>. */
export interface DigitsFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'defaultValue' | 'onChange' | 'type' | 'children'> {
  /** The visible label, wired to the input. */
  label: ReactNode;
  /** Initial text; its non-digits are dropped. */
  defaultValue?: string;
  /** Called with the bare digits, without separators, whenever they change. */
  onValueChange?: (digits: string) => void;
}

interface DigitsFieldViewProps extends Omit<DigitsFieldProps, 'defaultValue' | 'onValueChange'>, Pick<DigitsInput, 'inputRef' | 'value' | 'onChange'> {
  type: 'tel' | 'text';
}

/**
 * A label and its input. The input is never type="number": that type refuses
 * separators and has no caret API to restore the caret with.
 */
export function DigitsField({ label, id, inputRef, value, onChange, type, ...inputProps }: DigitsFieldViewProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <>
      <label htmlFor={inputId}>{label}</label>
      <input inputMode="numeric" {...inputProps} id={inputId} type={type} ref={inputRef} value={value} onChange={onChange} />
    </>
  );
}
