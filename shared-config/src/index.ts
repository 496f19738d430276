export { REMOTE_LOADING_BOUNDS, type ConfigProblem, type RemoteLoading, type RuntimeConfig, type SiteConfig } from './config/config-schema';
export { parseConfig, type ParsedConfig } from './config/parse-config';
export { loadConfig, readConfig } from './config/load-config';
export { CONFIG_TIMEOUT_MS, HTTP_TIMEOUT_MS, TOAST_DURATION_MS } from './constants';
export {
  EXPOSED_SECTION,
  SECTION_IDS,
  remoteNameOf,
  type SectionId,
  type SectionModule,
  type SectionProps,
} from './contract/section-contract';
export { PorticoProvider, type PorticoProviderProps } from './context/portico-provider';
export { usePortico } from './context/use-portico';
export { useConfig } from './context/use-config';
export { useText } from './context/use-text';
export { LANGUAGES, packFor, type Language } from './i18n/language';
export { fill, formatMoney } from './i18n/fill';
export type { StepText, TextPack } from './i18n/text-pack';
