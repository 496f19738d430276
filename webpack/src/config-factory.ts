import type { Configuration } from 'webpack';

/** The webpack CLI's arguments an app's config reads. */
export interface WebpackArgv {
  mode?: 'production' | 'development' | 'none';
}

/** What an app's webpack.config.ts exports: webpack calls it with the CLI's arguments. */
export type ConfigFactory<T extends Configuration | Configuration[]> = (env: unknown, argv?: WebpackArgv) => T;
