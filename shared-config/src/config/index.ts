/**
 * The config.json reader alone, for Node (the server's CSP and preloads, the
 * deploy tools): the same schema and parseConfig the page uses, without React.
 */
export {
  CONTACT_BOUNDS,
  MARKETS,
  PREVIEW_REFUSALS,
  REMOTE_LOADING_BOUNDS,
  type ConfigProblem,
  type ConfigSection,
  type ContactSettings,
  type GrievanceOfficer,
  type LegalConfig,
  type LegalDisclosures,
  type Market,
  type PreviewNote,
  type RemoteLoading,
  type RuntimeConfig,
  type SiteConfig,
  copyrightIn,
  inMarket,
  sectionGrant,
  isDocumentProblem,
} from './config-schema';
export { configWarnings } from './config-warnings';
export { MARKET_DETAILS } from './market-details';
export { parseConfig, type ParsedConfig } from './parse-config';
export { sectionsFromConfig } from './parse-sections';
export { pageSections, servedSections, tabSections } from './served-sections';
export { pageConfigOf } from './page-config';
