export { APP_DIRS, APP_NAMES, basePort, portOf, type AppName } from './apps';
export { answerConfig, requestHostname } from './config-endpoint';
export { staticFiles } from './static-files';
export { StartError, startPortico, type PorticoServerOptions, type RunningPortico } from './portico-server';
