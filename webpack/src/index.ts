export { createConfig, createPlainAppConfig, type AppOptions, type ConfigFactory, type WebpackArgv } from './create-config';
export { REACT_RANGE, SHARED_CONFIG_RANGE, sharedDependencies } from './shared-dependencies';
export { SECTION_WORKER_FILE, SERVER_WORKERS_DIR, SHELL_WORKER_FILE } from './server-workers-build';
export type { PlainAppOptions } from './plain-app-build';
