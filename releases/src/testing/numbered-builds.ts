import type { SectionId } from '@portico/contract/sections';
import type { PublishInput } from '../store/releases';

/** For tests: a function giving, at each call, a new build of `section` to publish (its own manifest URL, pin and build id). */
export function numberedBuilds(): (section: SectionId) => PublishInput {
  let builds = 0;
  return (section) => {
    builds++;
    return {
      section,
      manifestUrl: `https://cdn.example/${section}/${builds}/mf-manifest.json`,
      integrity: `sha384-${builds}`,
      version: '1.0.0',
      buildId: `build-${builds}`,
      createdBy: 'ci',
      checks: [],
    };
  };
}
