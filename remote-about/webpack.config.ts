import { createConfig } from '@portico/webpack';

export default createConfig({ app: 'about', dir: __dirname, exposes: 'src/exposes/section.ts', hydration: { mode: 'static' } });
