export type { ActiveReleases, Actor, AuditAction, AuditEntry, Canary, CheckResult, HealthSource, PublishCheckOutcome, PublishChecks, Release, ReleaseHealth, ReleaseState, Scope, ServedState } from './release';
export { CANARY_DEFAULTS } from './release';
export {
  ReleaseStore,
  RELEASES_CHANNEL,
  WATCH_POLL_MS,
  type AuditInput,
  type BrokenMark,
  type CanarySettlement,
  type CreatedToken,
  type ListedRelease,
  type PublishInput,
  type ReleaseStoreOptions,
  type SectionState,
  type SectionSwitch,
  type ShownRelease,
  type StoredRelease,
} from './store/release-store';
export { ReleaseError, type ReleaseErrorKind } from './store/release-error';
export { CONTROL_BODY_LIMIT, DEFAULT_HEALTH_WINDOW_HOURS, startControlApi, type ControlApi, type ControlApiOptions, type MessagesAdmin } from './control/control-api';
export { DEFAULT_PREVIEW_SECONDS, MAX_PREVIEW_SECONDS, MIN_PREVIEW_SECONDS, previewUrl, publicUrlOf, signPreview, verifyPreview, type PreviewGrant } from './preview-link';
export { ALL_SCOPES, ENVIRONMENT_ACTOR, mayActOn, OWNER_TOKEN_NAME, visibleSections } from './scopes';
export { DEFAULT_HEALTH_RETENTION_DAYS, HealthStore, healthRetentionDays, hourOf, type HealthCount, type VitalSummary } from './health/health-store';
export { HEALTH_TOKEN_HOURS, signHealthToken, verifyHealthToken, type HealthGrant } from './health/health-token';
export { parseVisitReport, REPORT_RELEASE_MAX, REPORT_TOKEN_MAX, reportCounts, type ReportCount } from './health/visit-report';
export { BUCKET_RATIO, bucketOf, bucketValue, percentiles, VITAL_SCALE, type Histogram } from './health/vital-histogram';
export { decideCanary, type CanaryDecision, type CanaryHealth } from './canary/decide-canary';
export { JUDGE_ACTOR, JUDGE_EVERY_MS, startCanaryJudge, type CanaryJudge, type CanaryJudgeOptions } from './canary/canary-judge';
export { type CanaryOptions, type CanarySettings } from './canary/canary-settings';
