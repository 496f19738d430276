import { servePortico } from '../server/src/main';
import { staticSections } from './static-sections-stage';

// `npm run serve` as production runs it, with the benchmark's static
// sections after Home: the server the "fed SSR + N static" column measures
// (run-bench.ts). The sections' manifest URLs are its arguments.
servePortico([staticSections(process.argv.slice(2))]);
