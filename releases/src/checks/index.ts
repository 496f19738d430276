// The publish checks, and the parts `npm run check-remotes` runs too: one check, two callers.
export { fetchChecked, originSet, type Fetched, type FetchRules } from './fetch-checked';
export { hostSharedVersions } from './host-shared';
export { fetchNodeBuild, type NodeBuild } from './node-build';
export { CHECKED_SHARES, inspectSection, type SectionReport } from './section-contract';
