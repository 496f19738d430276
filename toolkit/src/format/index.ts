export { formatAmount } from './format-amount';
export { formatDate, type DateInput, type FormatDateOptions } from './format-date';
export { groupThousands } from './group-thousands';
export type { NumberInput } from './parse-number';
