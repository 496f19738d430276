import type { SectionId } from '@portico/contract/sections';

// The release contract: the shapes the control API answers (../docs/releases.md
// and the product brief's "Releases" table), the store keeps and the server serves.

/** One check a publish ran, in words. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

/** An immutable, checked build of one section. */
export interface Release {
  /** `<section>-<n>`: readable, typed on the command line. */
  id: string;
  section: SectionId;
  manifestUrl: string;
  /** `sha384-…` of the manifest's exact bytes, computed by the server. */
  integrity: string;
  version: string;
  buildId: string;
  /** ISO 8601. */
  createdAt: string;
  /** The publishing token's name. */
  createdBy: string;
  note: string | null;
}

export type ReleaseState = 'active' | 'candidate' | 'previous' | 'available' | 'broken';

export type Scope = 'releases' | 'messages' | `section:${SectionId}`;

/** Who a token is: its name (the audit log's actor) and what it may do. */
export interface Actor {
  name: string;
  scopes: readonly Scope[];
}

export type AuditAction =
  | 'publish'
  | 'publish-refused'
  | 'activate'
  | 'rollback'
  | 'preview'
  | 'canary'
  | 'promote'
  | 'abort'
  | 'auto-rollback'
  | 'token'
  | 'broken';

export interface AuditEntry {
  at: string;
  actor: string;
  action: AuditAction;
  section: SectionId | null;
  release: string | null;
  /** The release active before, for an activation or a rollback. */
  from: string | null;
  detail: string;
}

/** What every server serves: each section's active release, where it has one. */
export type ActiveReleases = Partial<Record<SectionId, Release>>;

/** What a publish's checks found: every check in words, and the manifest's facts when they all passed. */
export interface PublishCheckOutcome {
  ok: boolean;
  checks: CheckResult[];
  /** Set when the manifest URL's origin is not one of the section's release origins: nothing was fetched. */
  refusedOrigin?: string;
  /** The pin computed from the manifest's exact bytes, and what the manifest says of itself (when ok). */
  manifest?: { integrity: string; version: string; buildId: string };
}

/** Runs every publish check on a section's build before anything is stored as releasable (`./checks`). */
export type PublishChecks = (request: { section: SectionId; manifestUrl: string }) => Promise<PublishCheckOutcome>;
