/**
 * config.json's reader and rules, for Node (the server's CSP and preloads,
 * the deploy tools) and the client-rendered page: the same schema and
 * parseConfig everywhere. The package's root, the singleton every section
 * shares, has the rules without the reader (config-rules.ts).
 */
export {
  type ConfigProblem,
  type ConfigSection,
  type ContactSettings,
  type GrievanceOfficer,
  type LegalConfig,
  type LegalDisclosures,
  type PreviewNote,
  type RemoteLoading,
  type RuntimeConfig,
  type SiteConfig,
} from './config-schema';
export {
  CONTACT_BOUNDS,
  MARKETS,
  PREVIEW_REFUSALS,
  REMOTE_LOADING_BOUNDS,
  type Market,
  copyrightIn,
  inMarket,
  sectionGrant,
  isDocumentProblem,
} from './config-rules';
export { configWarnings } from './config-warnings';
export { MARKET_DETAILS } from './market-details';
export { parseConfig, type ParsedConfig } from './parse-config';
export { loadConfig, readConfig } from './load-config';
export { sectionsFromConfig } from './parse-sections';
export { pageSections, servedSections, tabSections } from './served-sections';
export { pageConfigOf } from './page-config';
