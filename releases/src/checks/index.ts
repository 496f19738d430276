// The publish checks, and the parts `npm run check-remotes` runs too: one check, two callers.
export {
  PUBLISH_CHECKS,
  runPublishChecks,
  type CheckedManifest,
  type PublishCheckName,
  type PublishCheckOptions,
  type PublishChecks,
  type RenderCheck,
} from './publish-checks';
export { fetchChecked, originSet, type Fetched, type FetchRules } from './fetch-checked';
export { hostSharedVersions } from './host-shared';
export { fetchNodeBuild, type NodeBuild } from './node-build';
export { inspectSection, type SectionReport } from './section-contract';
