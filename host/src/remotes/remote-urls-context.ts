import { createContext } from 'react';
import type { ResolvedRemotes } from '@portico/contract/override';

/** Where each section loads from on this page load: config.json, or a per-visit override. */
export const RemoteUrlsContext = createContext<ResolvedRemotes | null>(null);
