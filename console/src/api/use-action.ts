import { useCallback, useState } from 'react';
import { useSignedIn } from '../app/session-context';
import type { Outcome } from '../components/outcome';
import { useConsoleText } from '../i18n/use-console-text';
import { describeError } from './describe-error';
import { isSessionOver, type ConsoleSession } from './console-session';

/**
 * An action's runner: its outcome in words (what `done` says of the
 * answer, or the API's refusal), and the session's end on a 401.
 * `changed` runs after each success: the screen reads what it changed at
 * once, without waiting for the API's event.
 */
export function useAction(changed?: () => void): {
  outcome: Outcome;
  busy: boolean;
  run<T>(act: (session: ConsoleSession) => Promise<T>, done: (answer: T) => string, failed?: (error: unknown) => string | undefined): Promise<T | undefined>;
} {
  const { session, expired } = useSignedIn();
  const text = useConsoleText();
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(act: (session: ConsoleSession) => Promise<T>, done: (answer: T) => string, failed?: (error: unknown) => string | undefined) => {
      setBusy(true);
      setOutcome(undefined);
      try {
        const answer = await act(session);
        setOutcome({ ok: true, text: done(answer) });
        changed?.();
        return answer;
      } catch (error) {
        if (isSessionOver(error)) expired();
        else setOutcome({ ok: false, text: failed?.(error) ?? describeError(error, text) });
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [session, expired, text, changed],
  );
  return { outcome, busy, run };
}
