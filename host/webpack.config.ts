import { createConfig } from '@portico/webpack';

export default createConfig({
  app: 'host',
  dir: __dirname,
  serverWorkers: { shell: 'src/workers/shell-worker.ts', section: 'src/workers/section-worker.ts' },
  pageScript: 'src/page-script.ts',
  islandsScript: 'src/islands.ts',
});
