import { useId, type ReactNode } from 'react';
import { MARKETS, type Market } from '@portico/contract/languages';
import { labelsProblems, marketsProblem } from '@portico/contract/section-entries';
import { ApiRefusal } from '@portico/control-contract';
import type { ListedSection } from '../../api/section-list';
import { useConsoleLanguage } from '../../i18n/use-console-text';

/** The form's fields a refusal may name, by the API's `field`. */
export type FieldKey = 'id' | 'labels.en' | 'labels.id' | 'origins' | 'interactive' | 'after' | 'markets';
export type Problems = Partial<Record<FieldKey, string>>;

/** "Place after"'s value for the first place (`"after": null`): a space, so no section id can be it. */
export const FIRST = ' first';

/** What the section fields hold while they are edited: the origins as typed, one a line. */
export interface SectionDraft {
  labels: { en: string; id: string };
  origins: string;
  interactive: boolean;
  /** A section's id, or FIRST. */
  after: string;
  markets: Market[];
}

export function originsOf(draft: SectionDraft): string[] {
  return draft.origins.split(/[\s,]+/).filter((origin) => origin !== '');
}

/** The shared rules' reasons for the fields they cover (@portico/contract/section-entries), before anything is sent. */
export function draftProblems(draft: SectionDraft): Problems {
  const problems: Problems = {};
  for (const problem of labelsProblems(draft.labels)) problems[problem.field as FieldKey] ??= problem.message;
  const markets = marketsProblem(draft.markets);
  if (markets !== undefined) problems.markets = markets;
  return problems;
}

/**
 * The field a refusal names (`labels.en`, `origins.2`), as the form's field;
 * undefined when it names none the form has (a full nav's 409 is about no
 * one field: it stays in the form's alert).
 */
export function refusedField(error: unknown): FieldKey | undefined {
  if (!(error instanceof ApiRefusal)) return undefined;
  const field = error.field('field');
  if (typeof field === 'string') {
    if (field === 'labels') return 'labels.en';
    const key = (['id', 'labels.en', 'labels.id', 'origins', 'interactive', 'after', 'markets'] as const).find(
      (one) => field === one || field.startsWith(`${one}.`),
    );
    if (key) return key;
  }
  return undefined;
}

export interface FieldProps {
  label: string;
  hint?: string;
  problem?: string;
  /** The control, given its id and the ids that describe it. */
  children(props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }): ReactNode;
}

/** A labelled control with its hint and, after a refusal, the reason beside it (its description, so a screen reader reads it with the field). */
export function Field({ label, hint, problem, children }: FieldProps) {
  const id = useId();
  const described = [hint && `${id}-hint`, problem && `${id}-problem`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(described ? { 'aria-describedby': described } : {}), ...(problem ? { 'aria-invalid': true } : {}) })}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {problem && (
        <p id={`${id}-problem`} className="problem">
          {problem}
        </p>
      )}
    </div>
  );
}

export interface SectionFieldsProps {
  draft: SectionDraft;
  onChange(draft: SectionDraft): void;
  problems: Problems;
  /** The sections it may be placed after (not itself), in nav order. */
  others: readonly ListedSection[];
}

/** A section's labels, origins, grant, place and markets: the same fields to add one and to change one. */
export function SectionFields({ draft, onChange, problems, others }: SectionFieldsProps) {
  const { language, text } = useConsoleLanguage();
  const t = text.sectionForm;
  const marketsId = useId();
  const interactiveId = useId();
  const set = (change: Partial<SectionDraft>) => onChange({ ...draft, ...change });
  return (
    <>
      <Field label={t.labelEn} problem={problems['labels.en']}>
        {(props) => <input {...props} type="text" value={draft.labels.en} onChange={(event) => set({ labels: { ...draft.labels, en: event.target.value } })} />}
      </Field>
      <Field label={t.labelId} problem={problems['labels.id']}>
        {(props) => <input {...props} type="text" value={draft.labels.id} onChange={(event) => set({ labels: { ...draft.labels, id: event.target.value } })} />}
      </Field>
      <Field label={t.origins} hint={t.originsHint} problem={problems.origins}>
        {(props) => <textarea {...props} rows={2} value={draft.origins} onChange={(event) => set({ origins: event.target.value })} />}
      </Field>
      <Field label={t.after} problem={problems.after}>
        {(props) => (
          <select {...props} value={draft.after} onChange={(event) => set({ after: event.target.value })}>
            <option value={FIRST}>{t.first}</option>
            {others.map((section) => (
              <option key={section.id} value={section.id}>
                {section.labels[language]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset className="markets" aria-describedby={`${marketsId}-hint${problems.markets ? ` ${marketsId}-problem` : ''}`}>
        <legend>{t.markets}</legend>
        {MARKETS.map((market) => (
          <label key={market}>
            <input
              type="checkbox"
              checked={draft.markets.includes(market)}
              onChange={(event) => set({ markets: MARKETS.filter((one) => (one === market ? event.target.checked : draft.markets.includes(one))) })}
            />{' '}
            {market}
          </label>
        ))}
        <p id={`${marketsId}-hint`} className="hint">
          {t.marketsHint}
        </p>
        {problems.markets && (
          <p id={`${marketsId}-problem`} className="problem">
            {problems.markets}
          </p>
        )}
      </fieldset>
      <div className="field check">
        <input
          id={interactiveId}
          type="checkbox"
          aria-describedby={`${interactiveId}-hint${problems.interactive ? ` ${interactiveId}-problem` : ''}`}
          checked={draft.interactive}
          onChange={(event) => set({ interactive: event.target.checked })}
        />{' '}
        <label htmlFor={interactiveId}>{t.interactive}</label>
        <p id={`${interactiveId}-hint`} className="hint">
          {t.interactiveHint}
        </p>
        {problems.interactive && (
          <p id={`${interactiveId}-problem`} className="problem">
            {problems.interactive}
          </p>
        )}
      </div>
    </>
  );
}
