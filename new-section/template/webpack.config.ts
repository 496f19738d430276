import { createConfig } from '@portico/webpack';

// Static: the server's HTML is final and the visitor's browser never loads
// this section's code. Scaffold with --interactive for a section that runs
// script in the page (an island); its grant is the integrator's.
export default createConfig({ app: '__SECTION_ID__', dir: __dirname, exposes: 'src/exposes/section.ts', hydration: { mode: 'static' } });
