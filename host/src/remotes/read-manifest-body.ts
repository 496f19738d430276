import { MANIFEST_MAX_BYTES } from '@portico/contract/manifest';

/**
 * A response's body, read no further than MANIFEST_MAX_BYTES (the declared
 * Content-Length first, then the bytes as they come, since a server may
 * declare none or lie). Over it, the answer is `tooLarge` and the download is
 * cancelled.
 */
export async function readManifestBody(response: Response): Promise<{ bytes: Uint8Array<ArrayBuffer> } | { tooLarge: true }> {
  const declared = Number(response.headers.get('Content-Length'));
  if (declared > MANIFEST_MAX_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    return { tooLarge: true };
  }
  if (!response.body) return { bytes: new Uint8Array(await response.arrayBuffer()) };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MANIFEST_MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes };
}
