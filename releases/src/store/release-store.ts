import { randomBytes } from 'node:crypto';
import type { SectionId } from '@portico/contract/sections';
import type { Database } from '@portico/platform/database';
import { SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS } from '@portico/control-contract';
import { ActivationHistory } from './activation-history';
import { AuditLog } from './audit-log';
import { Canaries } from './canaries';
import { migrateCanaries } from './canary-migrations';
import { migrateConsole } from './console-migrations';
import { AlertSettings } from './alert-settings';
import { ConsoleServers } from '../console/console-servers';
import { ConsoleSessions, type SessionLifetimes } from '../console/console-sessions';
import { migrateReleases } from './release-migrations';
import { watchReleases, type ReleaseWatch, type WatchOptions } from './release-watch';
import { Releases } from './releases';
import { SectionCatalogue } from './section-catalogue';
import { SectionGrants } from './section-grants';
import { OwnerToken } from './owner-token';
import { Tokens } from './tokens';

export interface ReleaseStoreOptions {
  /** PORTICO_CONTROL_TOKEN: accepted as an integrator token (actor `environment`, scopes releases and messages). */
  environmentToken?: string;
  /** The console sessions' idle and absolute lifetimes (30 minutes and 12 hours by default). */
  sessionLifetimes?: SessionLifetimes;
  /** The clock the sessions read and a canary's start is stamped with (tests move it; without it, Date.now and the database's now()). */
  now?: () => number;
}

const SESSION_LIFETIMES: SessionLifetimes = { idleMs: SESSION_IDLE_SECONDS * 1000, absoluteMs: SESSION_ABSOLUTE_SECONDS * 1000 };

/**
 * Releases, their activation history, canaries, tokens and the audit log,
 * in the one PostgreSQL database of the server (embedded or a server),
 * each a repository of its own over that database object. Every server on
 * the database shares one state: a change of a section is serialised per
 * section (a row lock every server takes), committed with its audit entry,
 * and announced on RELEASES_CHANNEL for the others to pick up (`watch`).
 */
export class ReleaseStore {
  readonly releases: Releases;
  readonly history: ActivationHistory;
  readonly canaries: Canaries;
  readonly audit: AuditLog;
  readonly tokens: Tokens;
  readonly ownerToken: OwnerToken;
  readonly sessions: ConsoleSessions;
  readonly servers: ConsoleServers;
  readonly alertSettings: AlertSettings;
  readonly grants: SectionGrants;
  /** The sections as data: the built-in ones and those an integrator added, their labels, origins, order, markets and whether hidden or retired. */
  readonly sections: SectionCatalogue;
  private readonly secrets = new Map<string, Promise<Buffer>>();

  private constructor(
    readonly db: Database,
    options: ReleaseStoreOptions,
  ) {
    this.releases = new Releases(db);
    this.history = new ActivationHistory(db);
    this.canaries = new Canaries(db, options.now);
    this.audit = new AuditLog(db);
    this.tokens = new Tokens(db, options.environmentToken);
    this.ownerToken = new OwnerToken(db, options.environmentToken);
    this.servers = new ConsoleServers(db);
    this.alertSettings = new AlertSettings(db);
    this.sections = new SectionCatalogue(db);
    this.grants = new SectionGrants(db, this.sections);
    this.sessions = new ConsoleSessions(
      db,
      this.tokens,
      options.sessionLifetimes ?? SESSION_LIFETIMES,
      () => this.sharedSecret('console-csrf-secret'),
      options.now,
    );
  }

  /** Opens the store on `db` (the contact service's database object: PGlite is one per folder), bringing its schema up to date. */
  static async open(db: Database, options: ReleaseStoreOptions = {}): Promise<ReleaseStore> {
    await migrateReleases(db);
    await migrateCanaries(db);
    await migrateConsole(db);
    return new ReleaseStore(db, options);
  }

  /** The key preview links are signed with: 32 random bytes made once, shared by every server on the database. */
  previewSecret(): Promise<Buffer> {
    return this.sharedSecret('preview-secret');
  }

  /** The secret named `name`: 32 random bytes made once, shared by every server on the database. */
  private sharedSecret(name: string): Promise<Buffer> {
    let secret = this.secrets.get(name);
    if (!secret) {
      secret = (async () => {
        await this.db.query('INSERT INTO release_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
          name,
          randomBytes(32).toString('base64'),
        ]);
        const [row] = await this.db.query<{ value: string }>('SELECT value FROM release_settings WHERE name = $1', [name]);
        return Buffer.from(row!.value, 'base64');
      })();
      // A failure (the database down) is tried again next time, not kept.
      secret.catch(() => this.secrets.delete(name));
      this.secrets.set(name, secret);
    }
    return secret;
  }

  /** Calls `onChange(section)` after each change of a section on any server (release-watch.ts). */
  watch(onChange: (section: SectionId) => void, options: WatchOptions = {}): Promise<ReleaseWatch> {
    return watchReleases(this.db, onChange, options);
  }
}
