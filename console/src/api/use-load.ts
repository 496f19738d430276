import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import type { ConsoleEvent } from '@portico/control-contract';
import { useSignedIn } from '../app/session-context';
import { useConsoleText } from '../i18n/use-console-text';
import { useConsoleEvents } from './console-events';
import { describeError } from './describe-error';
import { isSessionOver, type ConsoleSession } from './console-session';

export interface Loaded<T> {
  data: T | undefined;
  /** Why the last load failed, in words. */
  error: string | undefined;
  reload(): void;
}

/**
 * What a screen reads from the API: loaded at first, again whenever
 * `deps` change or an event of `kinds` arrives; a 401 ends the session.
 */
export function useLoad<T>(
  load: (session: ConsoleSession) => Promise<T>,
  deps: readonly unknown[],
  kinds: readonly ConsoleEvent['kind'][],
  section?: string,
): Loaded<T> {
  const { session, expired } = useSignedIn();
  const text = useConsoleText();
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [generation, setGeneration] = useState(0);
  const loadNow = useEffectEvent(() => load(session));
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  useConsoleEvents(kinds, reload, section);
  useEffect(() => {
    let current = true;
    loadNow().then(
      (value) => {
        if (!current) return;
        setData(value);
        setError(undefined);
      },
      (failure: unknown) => {
        if (!current) return;
        if (isSessionOver(failure)) expired();
        else setError(describeError(failure, text));
      },
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `deps` names what the load reads
  }, [generation, text, expired, ...deps]);
  return { data, error, reload };
}
