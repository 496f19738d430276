import { createConfig } from '@portico/webpack';

// The form needs its code no later than when a visitor can reach it: its tab
// selected (or a visit to #contact), the section scrolled near, or a first
// focus or keystroke in it. Until then the server's HTML stands alone.
export default createConfig({
  app: 'contact',
  dir: __dirname,
  exposes: 'src/exposes/section.ts',
  hydration: { mode: 'interactive', when: ['selected', 'visible', 'interaction'] },
});
