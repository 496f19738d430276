import { createContext, useContext, useEffect, useEffectEvent } from 'react';
import { CONSOLE_EVENT_KINDS, consoleEventSchema, EVENTS_PATH, type ConsoleEvent } from '@portico/control-contract';
import type { ConsoleSession } from './console-session';

type Listener = (event: ConsoleEvent) => void;

export interface ConsoleEvents {
  subscribe(listener: Listener): () => void;
}

/** How long to wait before opening the stream again after it broke. */
const RECONNECT_MS = 1000;

/**
 * The API's event stream (`GET /api/events`), read with fetch rather than
 * EventSource: EventSource cannot send the anti-forgery header the session
 * needs on every request, and the value must never be in the URL.
 */
export function openConsoleEvents(session: ConsoleSession, onSessionOver: (error: unknown) => boolean): ConsoleEvents & { close(): void } {
  const listeners = new Set<Listener>();
  const abort = new AbortController();
  const dispatch = (data: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    const event = consoleEventSchema.safeParse(parsed);
    if (event.success) for (const listener of listeners) listener(event.data);
  };
  let attempts = 0;
  const run = async () => {
    while (!abort.signal.aborted) {
      const again = attempts++ > 0;
      try {
        const response = await session.client.open(EVENTS_PATH, {}, { signal: abort.signal });
        const reader = response.body!.getReader();
        // What changed while the stream was down (or before a first attempt that failed) was said to nobody: every screen reads again.
        if (again) for (const kind of CONSOLE_EVENT_KINDS) for (const listener of listeners) listener({ kind });
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trimStart())
              .join('\n');
            if (data) dispatch(data);
          }
        }
      } catch (error) {
        if (abort.signal.aborted || onSessionOver(error)) return;
      }
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  };
  void run();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => abort.abort(),
  };
}

export const ConsoleEventsContext = createContext<ConsoleEvents>({ subscribe: () => () => undefined });

/** Calls `onChange` whenever the API says something of one of `kinds` changed (for `section`, when given). */
export function useConsoleEvents(kinds: readonly ConsoleEvent['kind'][], onChange: () => void, section?: string): void {
  const events = useContext(ConsoleEventsContext);
  const changed = useEffectEvent(onChange);
  const key = kinds.join(',');
  useEffect(
    () =>
      events.subscribe((event) => {
        if (!key.split(',').includes(event.kind)) return;
        if (section !== undefined && event.section !== undefined && event.section !== section) return;
        changed();
      }),
    [events, key, section],
  );
}
