import { PREVIEW_PARAM, previewTokenIn } from './preview';
import type { SectionId } from './sections';

/**
 * Where the page reads a section's manifest: on its own origin, so its
 * CSP's `connect-src` names that origin alone and a section's script can
 * send nothing elsewhere. The front server fetches the manifest from `url`
 * only when the page may load the section from it (its configured URL, or
 * an override the rule allows, for a section granted script), and answers
 * the origin's bytes as they came when they read as a manifest, an error
 * status without its body, and nothing else.
 */
export const SECTION_MANIFEST_PATH = '/section-manifest/';

/**
 * The page-origin path of `section`'s manifest at `url`. The visit's preview
 * token (in `pageSearch`, the page's `location.search`) goes with it, so the
 * server relays the preview's release, as it answers `/config.json`.
 */
export function sectionManifestPath(section: SectionId, url: string, pageSearch = ''): string {
  const preview = previewTokenIn(pageSearch);
  const query = new URLSearchParams({ url, ...(preview === undefined ? {} : { [PREVIEW_PARAM]: preview }) });
  return `${SECTION_MANIFEST_PATH}${encodeURIComponent(section)}?${query.toString()}`;
}

/**
 * The header of an answer the relay made itself rather than passed on from
 * the manifest's origin, naming why, so the page reports what happened (a
 * network error, a refusal) and not an HTTP status the origin never sent.
 */
export const RELAY_FAULT_HEADER = 'Portico-Relay-Fault';

/**
 * - `refused`: the page may not load the section from that URL (not its
 *   configured manifest nor an allowed override, or the section is granted
 *   no script); nothing was fetched.
 * - `unreachable`: the origin could not be reached, or did not answer in time.
 * - `redirected`: the origin answered a redirect, which is not followed.
 * - `too-large`: the manifest is over MANIFEST_MAX_BYTES.
 * - `busy`: the server relays as many manifests as it will at once.
 * - `not-a-manifest`: the origin answered something no page could load as
 *   a manifest; the answer's text is why (readManifest's words), not what
 *   the origin sent.
 */
export type RelayFault = 'refused' | 'unreachable' | 'redirected' | 'too-large' | 'busy' | 'not-a-manifest';
