import { createConfig } from '@portico/webpack';

export default createConfig({ app: 'host', dir: __dirname, renderWorker: 'src/server/render-worker.ts' });
