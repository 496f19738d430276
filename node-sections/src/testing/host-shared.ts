import { readFileSync } from 'node:fs';
import path from 'node:path';
// eslint-disable-next-line no-restricted-imports -- the whole singleton, as the sections' node builds get it (deployed ones use every name)
import * as sharedConfig from '@portico/shared-config';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as ReactDOM from 'react-dom';
import type { SharedModules } from '../node-section/evaluate-container';

const SHARED_CONFIG_VERSION = (JSON.parse(readFileSync(path.resolve(__dirname, '../../../shared-config/package.json'), 'utf8')) as { version: string }).version;

/**
 * This process's React, react-dom and shared-config, as a section's node
 * build asks for them (webpack/src/shared-dependencies.ts). A server
 * renders with these same instances.
 */
export function hostShared(overrides: Partial<Record<string, string>> = {}): SharedModules {
  const entry = (name: string, version: string, module: unknown) => ({ version: overrides[name] ?? version, module });
  return {
    react: entry('react', React.version, React),
    'react/jsx-runtime': entry('react/jsx-runtime', React.version, jsxRuntime),
    'react-dom': entry('react-dom', ReactDOM.version, ReactDOM),
    '@portico/shared-config': entry('@portico/shared-config', SHARED_CONFIG_VERSION, sharedConfig),
  };
}
