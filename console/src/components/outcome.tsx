export type Outcome = { ok: true; text: string } | { ok: false; text: string } | undefined;

export interface OutcomeLineProps {
  outcome: Outcome;
}

/** An action's outcome or error, in words, announced to screen readers. */
export function OutcomeLine({ outcome }: OutcomeLineProps) {
  return (
    <p className={outcome === undefined ? 'outcome' : outcome.ok ? 'outcome ok' : 'outcome error'} role={outcome?.ok === false ? 'alert' : 'status'}>
      {outcome?.text}
    </p>
  );
}
