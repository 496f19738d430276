// The server-rendered page's islands (issue 50): React, React DOM,
// shared-config and the sections' loader, built without Module Federation
// (webpack/src/islands-build.ts). The page script loads this file when an
// island is asked for, on a page whose every interactive section has an
// island script (the server decides: @portico/contract/island-scripts).
// eslint-disable-next-line no-restricted-imports -- the whole module, as the one instance the island scripts share (it re-exports contract names for deployed sections).
import * as sharedConfig from '@portico/shared-config';
import { ISLAND_SHARED_GLOBAL } from '@portico/contract/island-scripts';
import * as react from 'react';
import * as reactJsxRuntime from 'react/jsx-runtime';
import * as reactDom from 'react-dom';
import * as reactDomClient from 'react-dom/client';
import { readPageData } from './app/read-page-data';
import { loadIsland } from './remotes/island-loader';
import { startIsland } from './remotes/section-island';
import { startIslands } from './start-islands';

/** What the island scripts take as their shared modules: one React, one shared-config, the page's (@portico/webpack's sharedDependencies, each by name). */
export const islandShared = {
  react,
  'react/jsx-runtime': reactJsxRuntime,
  'react-dom': reactDom,
  'react-dom/client': reactDomClient,
  '@portico/shared-config': sharedConfig,
};

(globalThis as unknown as Record<string, unknown>)[ISLAND_SHARED_GLOBAL] = islandShared;
const pageData = readPageData(document);
if (pageData) {
  // A server-rendered page stays readable as it is if the islands cannot start.
  startIslands(pageData, Promise.resolve({ startIsland }), loadIsland).catch((error: unknown) => console.error('Portico: the islands could not start', error));
}
