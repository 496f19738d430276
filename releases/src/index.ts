export type { ActiveReleases, Actor, AuditAction, AuditEntry, Canary, CheckResult, HealthSource, PublishCheckOutcome, PublishChecks, Release, ReleaseHealth, ReleaseState, Scope, ServedCanary, ServedState } from './release';
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
  type ServerSignal,
  type ShownRelease,
  type StateRelease,
  type StoredRelease,
} from './store/release-store';
export { ReleaseError, type ReleaseErrorKind } from './store/release-error';
export { CONTROL_BODY_LIMIT, DEFAULT_HEALTH_WINDOW_HOURS, startControlApi, type ControlApi, type ControlApiOptions, type MessagesAdmin } from './control/control-api';
export { DEFAULT_PREVIEW_SECONDS, MAX_PREVIEW_SECONDS, MIN_PREVIEW_SECONDS, previewUrl, publicUrlOf, signPreview, verifyPreview, type PreviewGrant } from './preview-link';
export { ALL_SCOPES, ENVIRONMENT_ACTOR, mayActOn, OWNER_TOKEN_NAME, visibleSections } from './scopes';
export { DEFAULT_HEALTH_RETENTION_DAYS, HealthStore, healthRetentionDays, hourOf, type HealthCount, type TakenReport, type VitalSummary } from './health/health-store';
export { signVisitId, VISIT_ID_MS, verifyVisitId, type OpenedVisit, type VisitGrant } from './health/visit-id';
export { HEALTH_TOKEN_HOURS, signHealthToken, verifyHealthToken, type HealthGrant } from './health/health-token';
export { judgedKeys, parseVisitReport, parseVisitRequest, REPORT_RELEASE_MAX, REPORT_TOKEN_MAX, REPORT_VISIT_MAX, reportCounts, type ReportCount } from './health/visit-report';
export { BUCKET_RATIO, bucketOf, bucketValue, percentiles, VITAL_SCALE, type Histogram } from './health/vital-histogram';
export { decideCanary, judgeCanary, networkCap, type CanaryDecision, type CanaryHealth } from './canary/decide-canary';
export { canaryNetworkKey, isSignalKind, networkHash, noSignals, type CanaryCounts, type NetworkCounts, type ServerSignals, type SignalKind } from './canary/canary-counts';
export { JUDGE_ACTOR, JUDGE_EVERY_MS, startCanaryJudge, type CanaryCountsSource, type CanaryJudge, type CanaryJudgeOptions } from './canary/canary-judge';
export { describeNetworks, type CanaryOptions, type CanarySettings } from './canary/canary-settings';
