import { fill, useText } from '@portico/shared-config';
import type { RemoteFailure } from './report-failure';

export interface SectionAlertProps {
  /** The section's name as its tab shows it. */
  name: string;
  failure: RemoteFailure;
  onRetry: () => void;
}

/**
 * What a visitor sees in place of a section that failed, whatever the fault:
 * the same calm sentence and Try again. The small reason line is for the
 * operator on the phone with a visitor; the details are in the console.
 */
export function SectionAlert({ name, failure, onRetry }: SectionAlertProps) {
  const text = useText();
  return (
    <div role="alert" className="section-error">
      <p className="section-error__message">{fill(text.sections.failed, { section: name })}</p>
      <p className="section-error__reason">
        {failure.stage}: {failure.cause}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        {text.sections.tryAgain}
      </button>
    </div>
  );
}
