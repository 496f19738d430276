/**
 * The one spelling of a manifest URL that a release is checked, stored and
 * looked up by: the URL parser's normal form (scheme and host in lower
 * case, no default port, no leading zeros in the port, `.` and `..`
 * segments resolved) without a fragment, which no request sends. So
 * `http://LOCALHOST:032100/mf-manifest.json#v2` and
 * `http://localhost:32100/mf-manifest.json` are one URL, and the same bytes
 * at it are one release.
 */
export function normalisedManifestUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}
