import { createConfig } from '@portico/webpack';

// An island: the server's HTML is shown first, and this section's code loads
// only once a visitor uses it (the first focus, keystroke or tap inside it).
// The integrator must grant the section script (`"interactive": true`).
export default createConfig({
  app: '__SECTION_ID__',
  dir: __dirname,
  exposes: 'src/exposes/section.ts',
  hydration: { mode: 'interactive', when: ['interaction'] },
});
