export type {
  ActiveReleases,
  Actor,
  AuditAction,
  AuditEntry,
  Canary,
  CheckResult,
  HealthSource,
  PublishCheckOutcome,
  PublishChecks,
  Release,
  ReleaseHealth,
  ReleaseState,
  Scope,
  ServedCanary,
  ServedState,
} from './release';
export { CANARY_DEFAULTS, CONFIG_BASELINE } from './release';
export { ReleaseStore, type ReleaseStoreOptions } from './store/release-store';
export { Releases, type ListedRelease, type PublishInput, type ServerSignal } from './store/releases';
export { ActivationHistory } from './store/activation-history';
export { Canaries, type CanarySettlement } from './store/canaries';
export { AuditLog, type AuditInput } from './store/audit-log';
export { Tokens, type CreatedToken } from './store/tokens';
export { OwnerToken } from './store/owner-token';
export { WATCH_POLL_MS, type ReleaseWatch } from './store/release-watch';
export { RELEASES_CHANNEL } from './store/section-lock';
export type { SectionState, SectionSwitch } from './store/section-states';
export type { BrokenMark, ShownRelease, StateRelease, StoredRelease } from './store/release-rows';
export { ReleaseError, type ReleaseErrorKind } from './store/release-error';
export {
  CONTROL_BODY_LIMIT,
  DEFAULT_HEALTH_WINDOW_HOURS,
  METRICS_PATH,
  startControlApi,
  type ControlApi,
  type ControlApiOptions,
  type MetricsSource,
} from './control/control-api';
export type { MessagesAdmin } from './control/control-context';
export { DEFAULT_PREVIEW_SECONDS, MAX_PREVIEW_SECONDS, MIN_PREVIEW_SECONDS, previewUrl, signPreview, verifyPreview, type PreviewGrant } from './preview-link';
export { ALL_SCOPES, ENVIRONMENT_ACTOR, holdsScope, mayActOn, OWNER_TOKEN_NAME, visibleSections } from './scopes';
export { DEFAULT_HEALTH_RETENTION_DAYS, HealthStore, hourOf, type HealthCount, type TakenReport } from './health/health-store';
export { signVisitId, VISIT_ID_MS, verifyVisitId, type OpenedVisit, type VisitGrant } from './health/visit-id';
export { HEALTH_TOKEN_HOURS, signHealthToken, verifyHealthToken, type HealthGrant } from './health/health-token';
export {
  judgedKeys,
  parseVisitReport,
  parseVisitRequest,
  REPORT_RELEASE_MAX,
  REPORT_TOKEN_MAX,
  REPORT_VISIT_MAX,
  reportCounts,
  type ReportCount,
} from './health/visit-report';
export { BUCKET_RATIO, bucketOf, bucketValue, percentiles, VITAL_SCALE, type Histogram } from './health/vital-histogram';
export { countedHealth, decideCanary, judgeCanary, networkCap, type CanaryDecision, type CanaryHealth } from './canary/decide-canary';
export {
  canaryNetworkKey,
  isSignalKind,
  networkHash,
  noSignals,
  type CanaryCounts,
  type NetworkCounts,
  type ServerSignals,
  type SignalKind,
} from './canary/canary-counts';
export { startAlertSender, type AlertSender, type AlertSenderOptions } from './jobs/alert-sender';
export { systemClock, type JobClock } from './jobs/job-clock';
export { startHealthPrune, type HealthPrune } from './jobs/health-prune';
export { startReleaseRecheck, stillServedBy, type ReleaseRecheck, type StillServed } from './jobs/release-recheck';
export { startServerHeartbeat, type ServerHeartbeat } from './jobs/server-heartbeat';
export { JUDGE_ACTOR, JUDGE_EVERY_MS, startCanaryJudge, type CanaryCountsSource, type CanaryJudge, type CanaryJudgeOptions } from './jobs/canary-judge';
export { describeNetworks, type CanaryOptions, type CanarySettings } from './canary/canary-settings';
export { consoleFiles, type FolderFiles } from './console/console-files';
