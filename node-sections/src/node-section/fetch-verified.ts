import { NodeSectionError } from './node-section-error';
import { assertSri } from './sri';

export interface FetchLimits {
  /** Refused beyond this many bytes (after any content decoding). */
  maxBytes: number;
  /** For the whole transfer, headers and body. */
  timeoutMs: number;
}

/** Node builds are one file of tens of kilobytes; a server that answers for long or much is not serving one. */
export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxBytes: 2 * 1024 * 1024, timeoutMs: 5000 };

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

async function readCapped(body: ReadableStream<Uint8Array>, url: string, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, total);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new NodeSectionError('too-large', `${url} is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
}

/**
 * Fetches `url` over http(s) and returns its bytes only if they hash to
 * `integrity`. No redirect is followed (it could lead to another origin),
 * and the size and time are bounded, so a hostile or broken server can
 * neither feed the server other code nor hold it.
 */
export async function fetchVerified(url: string, integrity: string, limits: FetchLimits = DEFAULT_FETCH_LIMITS): Promise<Buffer> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let bytes: Buffer;
  try {
    const response = await fetch(url, { signal, redirect: 'error', headers: { accept: 'text/javascript, */*' } });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new NodeSectionError('http', `${url} answered HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > limits.maxBytes) {
      await response.body.cancel();
      throw new NodeSectionError('too-large', `${url} is ${declared} bytes, more than ${limits.maxBytes}`);
    }
    bytes = await readCapped(response.body, url, limits.maxBytes);
  } catch (error) {
    if (error instanceof NodeSectionError) throw error;
    if (signal.aborted) throw new NodeSectionError('timeout', `${url} did not arrive within ${limits.timeoutMs} ms`, { cause: error });
    throw new NodeSectionError('http', `${url} cannot be fetched (${causeOf(error)})`, { cause: error });
  }
  assertSri(bytes, integrity, 'integrity', url);
  return bytes;
}
