import { useCallback, useRef, useState } from 'react';
import { newIdempotencyKey } from '../api/idempotency-key';
import type { ContactRequest } from '@portico/contract/contact-wire';
import { sendContactMessage, type SendOutcome } from '../api/send-contact-message';

/** What the visitor sends: the request without its key, which this hook owns. */
export type Draft = Omit<ContactRequest, 'idempotencyKey'>;

/** The last send that got an outcome: what was sent, and what became of it. */
export interface LastSend {
  draft: Draft;
  outcome: SendOutcome;
  /** Counts sends, so a repeated failure can be announced again. */
  attempt: number;
}

interface Key {
  value: string;
  /** The draft stored under this key, once the server said so. */
  storedAs?: string;
}

const fingerprint = ({ name, telephone, message, language }: Draft) => JSON.stringify([name, telephone, message, language]);

/**
 * Sends the contact message, one send at a time. The idempotency key belongs
 * to the message until the server has stored it: every retry, after any
 * failure and whatever was edited meanwhile, reuses it, so a send that timed
 * out after all is never stored twice. Once stored, sending the same text
 * again reuses it too (the server answers 200 with the same id), and a
 * changed text is a new message with a new key. A 409 means an earlier
 * version was stored under the key; the next send takes a new one.
 */
export function useSendMessage() {
  const [sending, setSending] = useState(false);
  const [last, setLast] = useState<LastSend | null>(null);
  const inFlight = useRef(false);
  const key = useRef<Key | null>(null);
  const attempts = useRef(0);

  const send = useCallback(async (draft: Draft): Promise<SendOutcome | null> => {
    if (inFlight.current) return null;
    inFlight.current = true;
    const print = fingerprint(draft);
    if (!key.current || (key.current.storedAs !== undefined && key.current.storedAs !== print)) {
      key.current = { value: newIdempotencyKey() };
    }
    const used = key.current;
    attempts.current += 1;
    const attempt = attempts.current;
    setSending(true);

    const outcome = await sendContactMessage({ ...draft, idempotencyKey: used.value });
    if (outcome.kind === 'stored') used.storedAs = print;
    if (outcome.kind === 'conflict' && key.current === used) key.current = null;
    inFlight.current = false;
    // Set together, so the page never shows the button enabled beside the old outcome.
    setSending(false);
    setLast({ draft, outcome, attempt });
    return outcome;
  }, []);

  return { sending, last, send };
}
