import { fill, formatMoney, formatWholeNumber, usePortico, type SectionProps } from '@portico/shared-config';
import { localeOf, marketOf } from '@portico/contract/languages';
import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import type { FieldText } from '../i18n/calculator-text';
import { useCalculatorText } from '../i18n/use-calculator-text';
import { readWholeNumber, repaymentOf, TERMS, type LoanTerms } from '../terms';
import './calculator-section.css';

type Field = 'amount' | 'days';
const FIELDS: readonly Field[] = ['amount', 'days'];

/** What is in the form's fields now. */
function typedValues(form: HTMLFormElement | null): Partial<Record<Field, string>> {
  const typed: Partial<Record<Field, string>> = {};
  for (const name of FIELDS) {
    const control = form?.elements.namedItem(name);
    if (control instanceof HTMLInputElement) typed[name] = control.value;
  }
  return typed;
}

const percent = (fraction: number, locale: string) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(fraction);

/**
 * A repayment calculator: a loan amount and a term in days give the interest,
 * the fees and the total to repay, in the visitor's market's currency, from
 * this package's illustrative terms (terms.ts), recomputed as the visitor
 * types. The server renders it with the market's example filled in, so the
 * page shows a result before any script; its code loads on the first use.
 *
 * The fields are not controlled, as Contact's are not: a controlled input
 * writes each keystroke into its `value` attribute, where any stylesheet on
 * the page can match it. The state follows what is typed.
 */
export function CalculatorSection(_props: SectionProps) {
  const text = useCalculatorText();
  const { language } = usePortico();
  const locale = localeOf(language);
  const terms: LoanTerms = TERMS[marketOf(language)];
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const example = { amount: String(terms.example.amount), days: String(terms.example.days) };
  const [values, setValues] = useState<Record<Field, string>>(example);

  // Hydrating the server's HTML on the first use: what was typed before the
  // code arrived is in the fields, not in the state React hydrated with.
  useLayoutEffect(() => {
    const typed = typedValues(form.current);
    setValues((current) => ({ ...current, ...typed }));
  }, []);

  const money = (amount: number) => formatMoney(amount, locale, terms.currency);
  const separator = formatWholeNumber(1000, locale).replace(/\d/g, '');
  const bounds = {
    amount: { min: money(terms.amount.min), max: money(terms.amount.max), example: formatWholeNumber(terms.example.amount, locale) },
    days: { min: String(terms.days.min), max: String(terms.days.max), example: String(terms.example.days) },
  };
  const amount = readWholeNumber(values.amount, terms.amount, separator);
  const days = readWholeNumber(values.days, terms.days);
  const problems = { amount: typeof amount === 'number' ? undefined : amount, days: typeof days === 'number' ? undefined : days };
  const repayment = typeof amount === 'number' && typeof days === 'number' ? repaymentOf(amount, days, terms) : undefined;

  const field = (name: Field, fieldText: FieldText) => {
    const problem = problems[name];
    return (
      <div className="calculator-form__field">
        <label htmlFor={`${id}-${name}`}>{fieldText.label}</label>
        <input
          id={`${id}-${name}`}
          name={name}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          defaultValue={example[name]}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-${name}-hint${problem ? ` ${id}-${name}-problem` : ''}`}
          onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        />
        <p id={`${id}-${name}-hint`} className="calculator-form__hint">
          {fill(fieldText.hint, bounds[name])}
        </p>
      </div>
    );
  };

  return (
    <article className="calculator-section">
      <h2>{text.heading}</h2>
      <p className="calculator-section__illustrative">
        {fill(text.illustrative, { rate: percent(terms.dailyRate, locale), fee: percent(terms.feeRate, locale) })}
      </p>
      {/* Nothing to submit: the result follows the fields. */}
      <form ref={form} className="calculator-form" noValidate onSubmit={(event: FormEvent) => event.preventDefault()}>
        {field('amount', text.amount)}
        {field('days', text.days)}
      </form>
      <div role="status" className="calculator-section__result">
        {repayment ? (
          <dl>
            <dt>{text.interest}</dt>
            <dd>{money(repayment.interest)}</dd>
            <dt>{text.fees}</dt>
            <dd>{money(repayment.fees)}</dd>
            <dt className="calculator-section__total">{text.total}</dt>
            <dd className="calculator-section__total">{money(repayment.total)}</dd>
          </dl>
        ) : (
          FIELDS.map((name) => {
            const problem = problems[name];
            return (
              problem && (
                <p key={name} id={`${id}-${name}-problem`} className="calculator-section__problem">
                  {fill(text[name][problem], bounds[name])}
                </p>
              )
            );
          })
        )}
      </div>
    </article>
  );
}
