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
export { CONTROL_BODY_LIMIT, startControlApi, type ControlApi, type ControlApiOptions, type MessagesAdmin } from './control/control-api';
export { DEFAULT_PREVIEW_SECONDS, MAX_PREVIEW_SECONDS, previewUrl, publicUrlOf, signPreview, verifyPreview, type PreviewGrant } from './preview-link';
export { ALL_SCOPES, ENVIRONMENT_ACTOR, mayActOn, OWNER_TOKEN_NAME, visibleSections } from './scopes';
export { decideCanary, type CanaryDecision, type CanaryHealth } from './canary/decide-canary';
export { JUDGE_ACTOR, JUDGE_EVERY_MS, startCanaryJudge, type CanaryJudge, type CanaryJudgeOptions } from './canary/canary-judge';
export { canarySettingsProblem, type CanaryOptions, type CanarySettings } from './canary/canary-settings';
