export { createConfig, createPlainAppConfig } from './create-config';
export type { AppOptions } from './app-options';
export type { ConfigFactory, WebpackArgv } from './config-factory';
export { REACT_RANGE, SHARED_CONFIG_RANGE, sharedDependencies } from './shared-dependencies';
export { SECTION_WORKER_FILE, SERVER_WORKERS_DIR, SHELL_WORKER_FILE } from './server-workers-build';
export type { PlainAppOptions } from './plain-app-build';
