import type { HealthNote } from '@portico/contract/beacon';
import type { Logger } from '@portico/platform/logging';
import type { ServedState } from '@portico/releases';
import type { HostRule } from '@portico/platform/http';
import type { PreviewVisit, ReleaseFeed, ServedReleases } from '../served-releases';
import type { SiteContext } from '../site-context';
import type { ServerRendering, ServerRenderingOptions } from '../ssr/server-rendering';

/** What the four ports share while the server runs: its options with their defaults filled in, and what the host's port sets up. */
export interface ServingState {
  configPath?: string;
  basePort: number;
  /** Where each app listens, in APP_NAMES order, once it does. */
  ports: number[];
  hosts: readonly HostRule[];
  trustProxy: boolean;
  log: Logger;
  ssr: false | undefined | Pick<ServerRenderingOptions, 'budgetMs' | 'heapMb' | 'cache' | 'sandbox' | 'onSignal'>;
  /** The host's server rendering, once the host's app is set up. */
  rendering?: ServerRendering;
  releases?: ServedReleases;
  /** Warms the render workers for releases about to be served. */
  warmFor?: (next: ServedState) => Promise<void>;
  openPreview?: (token: string) => Promise<PreviewVisit>;
  healthToken?: ReleaseFeed['healthToken'];
  /** A page of these releases was served: the beacon may issue one more visit id for them; the id to send with the page, with `withVisit` (BeaconEndpoint.pageServed). */
  pageServed?: (releases: HealthNote['releases'], page: { served: ServedState; withVisit: boolean }) => Promise<string | undefined>;
  /** What this server saw of a release itself, for the store (ReleaseFeed.signal). */
  signal?: ReleaseFeed['signal'];
  /** The releases being warmed before they are served, while they are. */
  upcoming?: ServedState;
  /** Reads config.json as a visitor would get it (its report is logged the first time its content is seen). */
  readConfig?: () => Promise<SiteContext>;
  /** Set once SIGTERM (RunningPortico.drain) stops new visitors: not ready, and no connection kept after its answer. */
  draining?: boolean;
}

const NO_RELEASES: ServedState = { active: {}, canaries: {} };

/** What is served now: the releases and canaries, or none without a release store. */
export function servedNow(state: ServingState): ServedState {
  return state.releases?.current() ?? NO_RELEASES;
}
