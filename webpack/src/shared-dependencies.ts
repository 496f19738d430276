/**
 * The modules every app shares as one instance at run time, and the version
 * range each requires. Declared here once; every app and the remote contract
 * check read this list.
 */
export const REACT_RANGE = '^19.2.0';
export const SHARED_CONFIG_RANGE = '^1.0.0';

export const sharedDependencies = {
  react: { singleton: true, requiredVersion: REACT_RANGE },
  'react/jsx-runtime': { singleton: true, requiredVersion: REACT_RANGE },
  'react-dom': { singleton: true, requiredVersion: REACT_RANGE },
  'react-dom/client': { singleton: true, requiredVersion: REACT_RANGE },
  '@portico/shared-config': { singleton: true, requiredVersion: SHARED_CONFIG_RANGE },
} as const;
