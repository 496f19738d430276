import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { SectionModule } from '@portico/shared-config';
import { remoteNameOf, type SectionId } from '@portico/contract/sections';
import { createElement, Fragment } from 'react';
import { extraSectionId } from './extra-ids';
import { startSections as startOnes, type LoadSectionOptions, type SectionLoads } from '../../host/src/remotes/load-section';
import { loadSection as loadOne } from '../../host/src/remotes/federation-runtime';

declare const EXTRA_REMOTES: number;

/** The extra remotes' ports follow the host's: host + 10, + 11, … */
function extraManifest(index: number): string {
  return `${window.location.protocol}//${window.location.hostname}:${Number(window.location.port) + 10 + index}/mf-manifest.json`;
}

async function loadExtra(index: number): Promise<SectionModule> {
  const name = remoteNameOf(extraSectionId(index));
  registerRemotes([{ name, entry: extraManifest(index) }]);
  const module = await loadRemote<SectionModule>(`${name}/section`);
  if (!module) throw new Error(`${name} exposed nothing`);
  return module;
}

/**
 * Stands in for the host's loader in the benchmark's "extra remotes" build:
 * Home is shown only once it and every extra remote have loaded, so the
 * page's LCP and bytes include what each added remote costs.
 */
export async function loadSection(section: SectionId, manifestUrl: string | undefined, options?: LoadSectionOptions): Promise<SectionModule> {
  const main = loadOne(section, manifestUrl, options);
  if (section !== 'home') return main;
  const [home, ...extras] = await Promise.all([main, ...Array.from({ length: EXTRA_REMOTES }, (_, i) => loadExtra(i))]);
  return {
    Section: () => createElement(Fragment, null, createElement(home!.Section), ...extras.map((extra, i) => createElement(extra.Section, { key: i }))),
  };
}

/** The host's start, with Home waiting for the extra remotes. */
export function startSections(...[config, remotes]: Parameters<typeof startOnes>): SectionLoads {
  return startOnes(config, remotes, loadSection);
}
