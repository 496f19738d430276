/**
 * A release's preview link: `/?preview=<signed token>` on the page's
 * address. The page asks for `/config.json` with the same token (when it was
 * not server-rendered), so the server answers both with that release.
 */
export const PREVIEW_PARAM = 'preview';

/** Longer than any token the server signs; a longer one is not looked at. */
export const PREVIEW_TOKEN_MAX = 512;

/** The preview token a page address or query carries, if any. */
export function previewTokenIn(search: string): string | undefined {
  const token = new URLSearchParams(search).get(PREVIEW_PARAM);
  return token && token.length <= PREVIEW_TOKEN_MAX ? token : undefined;
}

/** Where the page reads its config.json: with the visit's preview token, if it has one. */
export function configUrlFor(search: string): string {
  const token = previewTokenIn(search);
  return token === undefined ? '/config.json' : `/config.json?${PREVIEW_PARAM}=${encodeURIComponent(token)}`;
}
