/** A field's messages: `{min}`, `{max}` and `{example}` are filled in the market's format. */
export interface FieldText {
  label: string;
  /** The allowed range, under the field. */
  hint: string;
  empty: string;
  notNumber: string;
  outOfRange: string;
}

/** Every text of the calculator, per language; both packs are typed by it. */
export interface CalculatorText {
  heading: string;
  /** `{rate}`: interest a day, `{fee}`: the processing fee, both as percentages. */
  illustrative: string;
  amount: FieldText;
  days: FieldText;
  interest: string;
  fees: string;
  total: string;
}
