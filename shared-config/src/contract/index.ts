// The contract between the apps, as data and types only: the browser bundles
// it as well as the server and the build, so nothing here may need Node.
export {
  EXPOSED_SECTION,
  SECTION_IDS,
  remoteNameOf,
  type SectionId,
  type SectionModule,
  type SectionProps,
} from './section-contract';
export {
  APP_DIRS,
  APP_NAMES,
  basePort,
  DEFAULT_PORT,
  defaultRemoteUrls,
  portOf,
  type AppName,
  type PortEnvironment,
} from './apps';
// The page's languages, how its address picks one and their URLs: the server
// renders the language the browser would, and its sitemap.xml and the page's
// head agree on the URLs.
export { LANGUAGE_NAMES, LANGUAGES, languageFromSearch, localeOf, pagePath, type Language } from '../i18n/language';
