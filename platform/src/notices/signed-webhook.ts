import { createHmac } from 'node:crypto';

/** The header every webhook the server sends carries its signature in: contact messages and alerts alike. */
export const SIGNATURE_HEADER = 'X-Portico-Signature';

/** `sha256=` and the HMAC-SHA256 of the exact body bytes, in hex. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export interface SignedPost {
  url: string;
  /** PORTICO_WEBHOOK_SECRET: the receiver checks the signature with it. */
  secret: string;
  /** The JSON body, signed as these exact bytes. */
  body: string;
  /** What names the notice to the receiver (`Idempotency-Key`, so it can drop a repeat, and its own id header). */
  headers: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

/**
 * POSTs one notice to an operator's webhook, signed with the shared secret
 * so the receiver can tell it came from this server; never follows a
 * redirect (the signed body would go where the operator did not say).
 * Resolves with the status once the webhook took it (2xx); throws with the
 * reason otherwise. Delivery is at least once: a server that dies between
 * sending and recording sends again, with the same `Idempotency-Key`.
 */
export async function postSigned(post: SignedPost): Promise<number> {
  const response = await fetch(post.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...post.headers, [SIGNATURE_HEADER]: signature(post.secret, post.body) },
    body: post.body,
    redirect: 'error',
    signal: AbortSignal.timeout(post.timeoutMs ?? 10_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
  return response.status;
}
