export type { ActiveReleases, Actor, AuditAction, AuditEntry, CheckResult, Release, ReleaseState, Scope } from './release';
