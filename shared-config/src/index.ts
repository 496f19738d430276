// The config.json schema, its types and its one reader (also `@portico/shared-config/config`, for Node).
export * from './config';
export { configWarnings } from './config/config-warnings';
export { loadConfig, readConfig } from './config/load-config';
export { CONFIG_TIMEOUT_MS } from './constants';
export {
  EXPOSED_SECTION,
  SECTION_IDS,
  remoteNameOf,
  type SectionId,
  type SectionModule,
  type SectionProps,
} from './contract/section-contract';
export { PorticoProvider, type PorticoProviderProps } from './context/portico-provider';
export { PorticoIslandProvider, type PorticoIslandProviderProps } from './context/portico-island-provider';
export type { PorticoContextValue } from './context/portico-context';
export { usePortico } from './context/use-portico';
export { useConfig } from './context/use-config';
export { useText } from './context/use-text';
export { useSectionText } from './context/use-section-text';
export {
  LANGUAGE_NAMES,
  LANGUAGE_PARAM,
  LANGUAGES,
  languageFromSearch,
  localeOf,
  pagePath,
  searchWithLanguage,
  type Language,
} from './i18n/language';
export { createTextLoader, type TextImports, type TextLoader } from './i18n/create-text-loader';
export { loadPack } from './i18n/load-pack';
export { fill, formatMoney, formatWholeNumber } from './i18n/fill';
export { fillParts } from './i18n/fill-parts';
export type { TextPack } from './i18n/text-pack';
export { contrastRatio, relativeLuminance, MIN_TEXT_CONTRAST } from './theme/contrast';
export { DEFAULT_THEME, PAGE_COLORS, themeProperties, type Theme } from './theme/theme';
