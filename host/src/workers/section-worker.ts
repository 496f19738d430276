/**
 * A section worker: the one process that runs a section team's node build,
 * started by `npm run serve` inside an OS sandbox (server/src/ssr/sandbox.ts:
 * bubblewrap, or another user; Node's permission model and no code from
 * strings on top), one per section. It gets the build's code from the front
 * server over its channel (it has no network and reads no file but this one), and
 * answers each render with that section's HTML alone. What it answers is
 * checked by the front server before it goes into a page.
 */
import { evaluateSection, type SharedModules } from '@portico/node-sections/evaluate';
import type { FromSectionWorker, NodeBuild, ToSectionWorker } from '@portico/node-sections/protocol';
// eslint-disable-next-line no-restricted-imports -- the whole singleton, as the sections' node builds get it (deployed ones use every name)
import * as sharedConfig from '@portico/shared-config';
import type { SectionModule } from '@portico/shared-config';
import type { SectionId } from '@portico/contract/sections';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import * as ReactDOM from 'react-dom';
import { renderSectionHtml } from './render-section';
import { workerChannel } from './worker-channel';

// What a section could reach if it left its context is taken away first; the
// sandbox around this process is the boundary, these only narrow it.
process.mainModule = undefined;
for (const name of ['fetch', 'WebSocket', 'EventSource'] as const) Reflect.deleteProperty(globalThis, name);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * This worker's React, react-dom and shared-config, as a section's node build
 * asks for them: the instances it renders with. shared-config's version is
 * the installed package's, written in at build time.
 */
const shared: SharedModules = {
  react: { version: React.version, module: React },
  'react/jsx-runtime': { version: React.version, module: jsxRuntime },
  'react-dom': { version: ReactDOM.version, module: ReactDOM },
  '@portico/shared-config': { version: process.env.PORTICO_SHARED_CONFIG_VERSION ?? '0.0.0', module: sharedConfig },
};

/** The section's console: one plain line each, to stderr, which the front server reads with a cap. */
function sectionConsole(): Partial<Console> {
  const write = (...args: unknown[]) => {
    process.stderr.write(`${args.map((arg) => (typeof arg === 'string' ? arg : messageOf(arg))).join(' ')}\n`);
  };
  return { log: write, info: write, warn: write, error: write, debug: write };
}

const builds = new Map<string, SectionModule>();
let section: SectionId | undefined;

async function load(id: number, of: SectionId, wanted: NodeBuild[]): Promise<void> {
  section = of;
  const failed: { key: string; reason: string }[] = [];
  for (const build of wanted) {
    try {
      builds.set(build.key, await evaluateSection(build.code, build.url, shared, sectionConsole()));
    } catch (error) {
      failed.push({ key: build.key, reason: messageOf(error) });
    }
  }
  send({ type: 'loaded', id, failed });
}

const send = workerChannel<ToSectionWorker, FromSectionWorker>((message) => {
  if (message.type === 'load') {
    void load(message.id, message.section, message.builds);
    return;
  }
  const module = builds.get(message.request.build);
  if (!module || !section) {
    send({ type: 'failed', id: message.id, reason: 'that build is not loaded in this worker' });
    return;
  }
  renderSectionHtml(module, section, message.request).then(
    (html) => send({ type: 'html', id: message.id, html }),
    (error: unknown) => send({ type: 'failed', id: message.id, reason: messageOf(error) }),
  );
});
send({ type: 'ready' });
