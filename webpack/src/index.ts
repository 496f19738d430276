export { createConfig, type AppOptions, type ConfigFactory, type WebpackArgv } from './create-config';
export { REACT_RANGE, SHARED_CONFIG_RANGE, sharedDependencies } from './shared-dependencies';
export { RENDER_WORKER_DIR, RENDER_WORKER_FILE } from './render-worker-build';
