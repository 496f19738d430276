import { createConfig } from '@portico/webpack';

// The form is read without script (the server renders it with an example
// filled in); its code is needed only once a visitor uses it: the first
// focus, keystroke or tap inside it.
export default createConfig({
  app: 'calculator',
  dir: __dirname,
  exposes: 'src/exposes/section.ts',
  hydration: { mode: 'interactive', when: ['interaction'] },
});
