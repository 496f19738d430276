import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Compilation, sources, type Compiler } from 'webpack';

/**
 * Copies an app's `public/` folder (favicon, robots.txt) into its dist/ as
 * is: files that keep their names, so they are served revalidated, not
 * cached for a year like hashed chunks.
 */
export class PublicFilesPlugin {
  constructor(private readonly folder: string) {}

  apply(compiler: Compiler): void {
    compiler.hooks.thisCompilation.tap('PublicFilesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'PublicFilesPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        if (!existsSync(this.folder)) return;
        for (const name of readdirSync(this.folder)) {
          const file = path.join(this.folder, name);
          if (!statSync(file).isFile()) continue;
          compilation.fileDependencies.add(file);
          compilation.emitAsset(name, new sources.RawSource(readFileSync(file)));
        }
      });
    });
  }
}
