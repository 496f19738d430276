import { createConfig } from '@portico/webpack';

export default createConfig({
  app: 'host',
  dir: __dirname,
  serverWorkers: { shell: 'src/server/shell-worker.ts', section: 'src/server/section-worker.ts' },
});
