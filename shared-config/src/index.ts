// config.json's types and the rules a page reads a validated config by. The
// reader and its schema (zod) are `@portico/shared-config/config`'s alone:
// the server validates what a server-rendered page is handed, so the
// singleton every section shares carries no parser (issue 50); the
// client-rendered page bundles the reader itself.
export type {
  ConfigProblem,
  ConfigSection,
  ContactSettings,
  GrievanceOfficer,
  LegalConfig,
  LegalDisclosures,
  PreviewNote,
  RemoteLoading,
  RuntimeConfig,
  SiteConfig,
} from './config/config-schema';
export type { ParsedConfig } from './config/parse-config';
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
} from './config/config-rules';
export { CONFIG_TIMEOUT_MS } from './constants';
export { type SectionModule, type SectionProps } from './contract/section-contract';
// Kept for sections already deployed, and only for them: a section built
// against shared-config 1.x takes these from the shared singleton at run time,
// so removing them would break it on the next host deploy. Their home is
// @portico/contract; eslint.config.mjs keeps this repository's code from
// importing them from here. Dropped in shared-config 2.0.
export { EXPOSED_SECTION, remoteNameOf, SECTION_IDS, type SectionId } from '@portico/contract/sections';
export {
  LANGUAGE_NAMES,
  LANGUAGE_PARAM,
  LANGUAGES,
  languageFromSearch,
  localeOf,
  pagePath,
  searchWithLanguage,
  type Language,
} from '@portico/contract/languages';
export { PorticoProvider, type PorticoProviderProps } from './context/portico-provider';
export { PorticoIslandProvider, type PorticoIslandProviderProps } from './context/portico-island-provider';
export type { PorticoContextValue } from './context/portico-context';
export { usePortico } from './context/use-portico';
export { useConfig } from './context/use-config';
export { useText } from './context/use-text';
export { useSectionText } from './context/use-section-text';
export { createTextLoader, type TextImports, type TextLoader } from './i18n/create-text-loader';
export { loadPack } from './i18n/load-pack';
export { fill, formatMoney, formatWholeNumber } from './i18n/fill';
export { fillParts } from './i18n/fill-parts';
export type { TextPack } from './i18n/text-pack';
export { contrastRatio, relativeLuminance, MIN_TEXT_CONTRAST } from './theme/contrast';
export { DEFAULT_THEME, PAGE_COLORS, themeProperties, type Theme } from './theme/theme';
