import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SectionId } from '@portico/contract/sections';
import type { Database } from '@portico/platform/database';
import type { Actor, Scope } from '../release';
import { ALL_SCOPES, ENVIRONMENT_ACTOR, isScope, isSection, reservedNameProblem, sectionOfScopes } from '../scopes';
import { recordAudit } from './audit-log';
import { ReleaseError } from './release-error';
import { needLiveSection } from './section-lock';

export interface CreatedToken {
  name: string;
  section: SectionId | null;
  scopes: Scope[];
  /** Shown this once; the store keeps only its hash. */
  token: string;
}

/** What a token is stored as: its sha256, never the token. */
export const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** Letters, digits, `.`, `_`, `-`: a token's name is typed on command lines and read in the audit log. */
const TOKEN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The bearer tokens of the control API, each with its scopes, stored as
 * their sha256; and PORTICO_CONTROL_TOKEN, an integrator's token the
 * environment gives and no row holds.
 */
export class Tokens {
  private readonly environmentHash: Buffer | undefined;
  /** The hash each actor this store answered was authenticated with, beside it (an Actor is shown and logged, so never in it). */
  private readonly hashes = new WeakMap<Actor, string>();

  /** `environmentToken`: PORTICO_CONTROL_TOKEN, accepted as an integrator token (actor `environment`, every scope). */
  constructor(
    private readonly db: Database,
    environmentToken: string | undefined,
  ) {
    this.environmentHash = environmentToken ? hashOf(environmentToken) : undefined;
  }

  /**
   * A new token, random, returned this once and stored as its sha256. With a
   * section and no scopes it is that section's token; with neither, an
   * integrator's (`releases`). With both, the scopes must act on that section
   * alone (its `section:` scope, and perhaps `messages`): a token filed under
   * one section must not act on another (400). With scopes alone, the
   * section is the one they act on, if one.
   */
  async create(options: { name: string; section?: SectionId | null; scopes?: readonly Scope[]; actor: string }): Promise<CreatedToken> {
    const { name, actor } = options;
    const reserved = reservedNameProblem(name);
    if (reserved) throw new ReleaseError('invalid', reserved, 'name');
    if (!TOKEN_NAME.test(name))
      throw new ReleaseError('invalid', `a token's name is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`, 'name');
    const given = options.section ?? null;
    if (given !== null && !isSection(given)) throw new ReleaseError('not-found', `no section ${JSON.stringify(given)}`);
    const scopes = [...new Set(options.scopes ?? [given ? (`section:${given}` as const) : 'releases'])];
    if (scopes.length === 0 || !scopes.every(isScope))
      throw new ReleaseError('invalid', 'scopes are releases, messages or section:<id> (a section the catalogue holds)', 'scopes');
    const section = given ?? sectionOfScopes(scopes);
    if (given !== null && sectionOfScopes(scopes) !== given) {
      throw new ReleaseError(
        'invalid',
        `scopes: ${scopes.join(', ')} disagree with section ${given}: a token of ${given} holds section:${given} (and perhaps messages), nothing that acts on another section`,
        'scopes',
      );
    }
    return this.db.transaction(async (sql) => {
      // Each section it acts on held and live (404, 409), under the row's share lock: a retirement revokes every token of its section, so none may slip in beside it.
      for (const scope of scopes) if (scope.startsWith('section:')) await needLiveSection(sql, scope.slice('section:'.length));
      const token = randomBytes(32).toString('base64url');
      const inserted = await sql.query(
        'INSERT INTO release_tokens (name, scopes, hash, created_by) VALUES ($1, $2::text[], $3, $4) ON CONFLICT DO NOTHING RETURNING id',
        [name, scopes, hashOf(token).toString('hex'), actor],
      );
      if (inserted.length === 0) throw new ReleaseError('conflict', `a token named ${name} exists; revoke it first`);
      await recordAudit(sql, { actor, action: 'token', section, detail: `created ${name} (${scopes.join(', ')})` });
      return { name, section, scopes, token };
    });
  }

  /** The live tokens, oldest first, without their secrets. */
  async list(): Promise<{ name: string; section: SectionId | null; scopes: Scope[]; createdAt: string; createdBy: string; owner: boolean }[]> {
    const rows = await this.db.query<{ name: string; scopes: Scope[]; created_at: Date | string; created_by: string; owner: boolean }>(
      'SELECT name, scopes, created_at, created_by, owner FROM release_tokens WHERE revoked_at IS NULL ORDER BY id',
    );
    return rows.map((row) => {
      const scopes = row.scopes.filter(isScope);
      return {
        name: row.name,
        section: sectionOfScopes(scopes),
        scopes,
        createdAt: new Date(row.created_at).toISOString(),
        createdBy: row.created_by,
        owner: row.owner,
      };
    });
  }

  /** The live token named `name`, without its secret; undefined when there is none. */
  async find(name: string): Promise<{ name: string; scopes: Scope[]; owner: boolean } | undefined> {
    const [row] = await this.db.query<{ name: string; scopes: Scope[]; owner: boolean }>(
      'SELECT name, scopes, owner FROM release_tokens WHERE name = $1 AND revoked_at IS NULL',
      [name],
    );
    return row;
  }

  /** Revokes the live token named `name`; false when there is none. */
  async revoke(name: string, actor: string): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const [revoked] = await sql.query<{ scopes: Scope[] }>(
        'UPDATE release_tokens SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL RETURNING scopes',
        [name],
      );
      if (!revoked) return false;
      await recordAudit(sql, { actor, action: 'token', section: sectionOfScopes(revoked.scopes.filter(isScope)), detail: `revoked ${name}` });
      return true;
    });
  }

  /**
   * Who a bearer token is, or undefined. Looked up by its sha256 (an index
   * hit whatever the token), then the hashes compared in constant time;
   * PORTICO_CONTROL_TOKEN is compared the same way.
   */
  async authenticate(bearer: string | undefined): Promise<Actor | undefined> {
    if (!bearer) return undefined;
    return this.authenticateHash(hashOf(bearer).toString('hex'));
  }

  /** Who the token whose sha256 is `hashHex` is, or undefined (a console session keeps only that hash). */
  async authenticateHash(hashHex: string): Promise<Actor | undefined> {
    const given = Buffer.from(hashHex, 'hex');
    if (given.length !== 32) return undefined;
    const actor = await this.actorOfHash(given, hashHex);
    if (actor) this.hashes.set(actor, hashHex);
    return actor;
  }

  /**
   * Whether `actor` (as this store authenticated it) still holds: its token
   * not revoked since, on any server. What a request long under way (an
   * event stream) asks again; an actor this store did not answer holds not.
   */
  async stillValid(actor: Actor): Promise<boolean> {
    const hashHex = this.hashes.get(actor);
    if (hashHex === undefined) return false;
    return (await this.actorOfHash(Buffer.from(hashHex, 'hex'), hashHex))?.name === actor.name;
  }

  private async actorOfHash(given: Buffer, hashHex: string): Promise<Actor | undefined> {
    if (this.environmentHash && timingSafeEqual(given, this.environmentHash)) return { name: ENVIRONMENT_ACTOR, scopes: ALL_SCOPES };
    const [row] = await this.db.query<{ name: string; scopes: Scope[]; hash: string }>(
      'SELECT name, scopes, hash FROM release_tokens WHERE hash = $1 AND revoked_at IS NULL',
      [hashHex],
    );
    if (!row) return undefined;
    const stored = Buffer.from(row.hash, 'hex');
    return stored.length === given.length && timingSafeEqual(stored, given) ? { name: row.name, scopes: row.scopes.filter(isScope) } : undefined;
  }
}
