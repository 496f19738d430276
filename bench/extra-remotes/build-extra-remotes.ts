import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createConfig } from '@portico/webpack';
import webpack, { type Configuration } from 'webpack';
import { REPO_ROOT } from '../paths';
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
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: path.join(REPO_ROOT, 'tsconfig.base.json'), include: ['src'] }, null, 2),
    );
    return dir;
  });
}

/** One multi-compiler run builds every extra remote into its own dist/. */
export function extraRemoteConfigs(root: string, count: number): Configuration[] {
  // Each remote is two compilations: its section's node build, then the browser build.
  return writeSources(root, count).flatMap((dir, index) =>
    createConfig({ app: 'about', dir, exposes: 'src/exposes/section.tsx', federationName: `bench_extra_${index}` })(undefined, {
      mode: 'production',
    }),
  );
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
