import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { remoteNameOf } from '@portico/contract/sections';
import { createConfig } from '@portico/webpack';
import webpack, { type Configuration } from 'webpack';
import { REPO_ROOT } from '../paths';
import { extraSectionId } from './extra-ids';
import { replaceHostLoader } from '../replace-host-loader';

const SECTION = (index: number) => `import type { SectionProps } from '@portico/shared-config';

export function Section(_props: SectionProps) {
  return (
    <section className="bench-extra">
      <h3>Extra section ${index + 1}</h3>
      <p>A small remote, loaded at run time like the three real sections.</p>
    </section>
  );
}
`;

/** Writes the sources of `count` small remotes under `root`, one folder each. */
function writeSources(root: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const dir = path.join(root, `extra-${index}`);
    mkdirSync(path.join(dir, 'src/exposes'), { recursive: true });
    writeFileSync(path.join(dir, 'src/index.ts'), "void import('./bootstrap');\n");
    writeFileSync(
      path.join(dir, 'src/bootstrap.tsx'),
      `import { mountStandalone } from '@portico/testing/standalone';\nimport { Section } from './exposes/section';\n\nvoid mountStandalone(Section, 'Extra ${index + 1}');\n`,
    );
    writeFileSync(path.join(dir, 'src/exposes/section.tsx'), SECTION(index));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ extends: path.join(REPO_ROOT, 'tsconfig.base.json'), include: ['src'] }, null, 2));
    return dir;
  });
}

type Plugin = NonNullable<Configuration['plugins']>[number];
type FederationOptions = ConstructorParameters<typeof ModuleFederationPlugin>[0];

/** The options a Module Federation plugin was made with, which @module-federation/enhanced (pinned) keeps as `_options`. */
const federationOptions = (plugin: ModuleFederationPlugin) => (plugin as unknown as { _options: FederationOptions })._options;

/**
 * A remote's production compilations (its section's node build, then the
 * browser build) under another federation name, so that several load side by
 * side in one page. The factory names each app after itself, once; this
 * renames everything it made from that name: the compilations and what they
 * depend on, the chunk-loading globals (`uniqueName`) and the two containers,
 * each plugin made again from its own options with the new name.
 */
function withFederationName(configs: Configuration[], from: string, to: string): Configuration[] {
  const rename = (value: string) => {
    if (!value.startsWith(from)) throw new Error(`extra remotes: "${value}" is not named after ${from}`);
    return `${to}${value.slice(from.length)}`;
  };
  let containers = 0;
  const renamePlugin = (plugin: Plugin): Plugin => {
    if (plugin instanceof ModuleFederationPlugin) {
      containers += 1;
      return new ModuleFederationPlugin({ ...federationOptions(plugin), name: to });
    }
    if (plugin instanceof webpack.container.ModuleFederationPlugin) {
      containers += 1;
      return new webpack.container.ModuleFederationPlugin({ ...plugin.options, name: to });
    }
    return plugin;
  };
  const renamed = configs.map((config) => ({
    ...config,
    name: config.name === undefined ? undefined : rename(config.name),
    dependencies: config.dependencies?.map(rename),
    output: { ...config.output, uniqueName: config.output?.uniqueName === undefined ? undefined : rename(config.output.uniqueName) },
    plugins: config.plugins?.map(renamePlugin),
  }));
  if (containers !== configs.length) {
    throw new Error(`extra remotes: expected one Module Federation container per compilation, found ${containers} in ${configs.length}`);
  }
  return renamed;
}

/** One multi-compiler run builds every extra remote into its own dist/. */
export function extraRemoteConfigs(root: string, count: number): Configuration[] {
  // Each remote is two compilations: its section's node build, then the browser build.
  return writeSources(root, count).flatMap((dir, index) => {
    const about = createConfig({ app: 'about', dir, exposes: 'src/exposes/section.tsx', hydration: { mode: 'static' } })(undefined, { mode: 'production' });
    return withFederationName([about].flat(), remoteNameOf('about'), remoteNameOf(extraSectionId(index)));
  });
}

/** The federated host whose Home also loads the extra remotes. */
export function extraHostConfig(outDir: string, count: number): Configuration {
  const config = createConfig({ app: 'host', dir: path.join(REPO_ROOT, 'host') })(undefined, { mode: 'production' });
  return {
    ...config,
    output: { ...config.output, path: outDir },
    plugins: [
      ...(config.plugins ?? []),
      new webpack.DefinePlugin({ EXTRA_REMOTES: JSON.stringify(count) }),
      replaceHostLoader(path.join(__dirname, 'load-section.ts')),
    ],
  };
}
