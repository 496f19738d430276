import { createHash } from 'node:crypto';
import { loadNodeSection, type SharedModules } from '@portico/render';
import * as sharedConfig from '@portico/shared-config';
import type { SectionModule } from '@portico/shared-config';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as ReactDOM from 'react-dom';

/** A section's node build as this worker has it. */
export type NodeSectionState =
  | { status: 'loading' }
  | { status: 'loaded'; module: SectionModule }
  | { status: 'refused'; reason: string };

interface Entry {
  state: NodeSectionState;
  settled: Promise<void>;
}

/**
 * A refused load is tried again after this long: a node build that was
 * unreachable may be back, and a tampered one costs one fetch per interval.
 */
const FORGET_REFUSAL_MS = 5000;

/**
 * This worker's React, react-dom and shared-config, as a section's node build
 * asks for them: one instance renders the shell and every section.
 * shared-config's version is the installed package's, written in at build time.
 */
function workerShared(): SharedModules {
  const sharedConfigVersion = process.env.PORTICO_SHARED_CONFIG_VERSION ?? '0.0.0';
  return {
    react: { version: React.version, module: React },
    'react/jsx-runtime': { version: React.version, module: jsxRuntime },
    'react-dom': { version: ReactDOM.version, module: ReactDOM },
    '@portico/shared-config': { version: sharedConfigVersion, module: sharedConfig },
  };
}

/**
 * The node builds this worker has loaded, each once, keyed by the manifest's
 * URL, its text's SHA-256 and its pin: a redeploy (new text) or a new pin is
 * a new load. The worker lives for one generation, so what it holds is never
 * more than what the front server's watched manifests named meanwhile.
 */
export function createNodeSections(shared: SharedModules = workerShared()) {
  const entries = new Map<string, Entry>();

  return function nodeSection(manifestUrl: string, manifest: string, pin: string | undefined): Entry {
    const key = [manifestUrl, createHash('sha256').update(manifest).digest('base64'), pin ?? ''].join('\n');
    const known = entries.get(key);
    if (known) return known;
    const entry: Entry = { state: { status: 'loading' }, settled: Promise.resolve() };
    entry.settled = loadNodeSection({ manifestUrl, manifest, remoteIntegrity: pin, shared }).then(
      (module) => {
        entry.state = { status: 'loaded', module };
      },
      (error: unknown) => {
        entry.state = { status: 'refused', reason: error instanceof Error ? error.message : String(error) };
        setTimeout(() => entries.delete(key), FORGET_REFUSAL_MS).unref();
      },
    );
    entries.set(key, entry);
    return entry;
  };
}

export type NodeSections = ReturnType<typeof createNodeSections>;
