import { createConfig } from '@portico/webpack';

export default createConfig({ app: 'contact', dir: __dirname, exposes: 'src/exposes/section.ts' });
