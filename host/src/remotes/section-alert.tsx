import { fill, useText } from '@portico/shared-config';
import { failureClassOf } from '../health/visit-outcomes';
import type { RemoteFailure } from './report-failure';

export interface SectionAlertProps {
  /** The section's name as its tab shows it. */
  name: string;
  failure: RemoteFailure;
  onRetry: () => void;
}

/**
 * What a visitor sees in place of a section that failed, whatever the fault:
 * the same calm sentence and Try again. The small reason line, in the
 * visitor's language, says what went wrong (too slow, refused, or where
 * loading stopped), for the operator on the phone with a visitor; the
 * technical detail (URL, status) is in the console.
 */
export function SectionAlert({ name, failure, onRetry }: SectionAlertProps) {
  const text = useText();
  // The visit report's reading of the cause: a deadline and a pin are said as such, anything else by its stage.
  const kind = failureClassOf(failure);
  const reason = kind === 'timeout' || kind === 'integrity' ? text.sections.reasons[kind] : text.sections.reasons[failure.stage];
  return (
    <div role="alert" className="section-error">
      <p className="section-error__message">{fill(text.sections.failed, { section: name })}</p>
      <p className="section-error__reason">{reason}</p>
      <button type="button" className="button" onClick={onRetry}>
        {text.sections.tryAgain}
      </button>
    </div>
  );
}
