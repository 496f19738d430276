export { createConfig, type AppOptions, type ConfigFactory, type WebpackArgv } from './create-config';
export { REACT_RANGE, SHARED_CONFIG_RANGE, sharedDependencies } from './shared-dependencies';
