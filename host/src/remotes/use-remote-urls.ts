import { useConfig } from '@portico/shared-config';
import { useContext } from 'react';
import { RemoteUrlsContext } from './remote-urls-context';
import type { ResolvedRemotes } from '@portico/contract/override';

/** The page's remote URLs; without a provider (a test, a preview), config.json's as they are. */
export function useRemoteUrls(): ResolvedRemotes {
  const { remotes } = useConfig();
  return useContext(RemoteUrlsContext) ?? { remotes, overrides: [], refused: [] };
}
