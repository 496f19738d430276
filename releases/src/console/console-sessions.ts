import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '@portico/platform/database';
import type { Actor } from '../release';
import { hashOf, type Tokens } from '../store/tokens';

/** A session as its holder sees it: the actor, its anti-forgery value, and when it ends. */
export interface OpenSession {
  actor: Actor;
  csrf: string;
  idleExpiresAt: Date;
  expiresAt: Date;
}

/** A new session: its id (the cookie's value), shown this once, beside what its holder sees. */
export interface NewSession extends OpenSession {
  id: string;
  /** Its absolute lifetime: the cookie's Max-Age. */
  seconds: number;
}

export interface SessionLifetimes {
  idleMs: number;
  absoluteMs: number;
}

const hex = (text: string) => hashOf(text).toString('hex');

/**
 * The operator console's sessions, in the database every server shares:
 * a session opened on one server is valid on all, and ended on one it is
 * ended on all. Only hashes of a session's id and anti-forgery value are
 * stored. The anti-forgery value is an HMAC of the id under a secret the
 * servers share, so a reloaded console gets it again from its cookie
 * (GET /api/session) without the database holding it. Each session's actor
 * is its token's, read again at every request: a revoked token's sessions
 * end with it.
 */
export class ConsoleSessions {
  constructor(
    private readonly db: Database,
    private readonly tokens: Tokens,
    private readonly lifetimes: SessionLifetimes,
    /** The key anti-forgery values are made with, shared by every server on the database. */
    private readonly secret: () => Promise<Buffer>,
    private readonly now: () => number = Date.now,
  ) {}

  private async csrfOf(id: string): Promise<string> {
    return createHmac('sha256', await this.secret())
      .update(id, 'utf8')
      .digest('base64url');
  }

  /** Opens a session for `token`, or undefined when it is unknown or revoked. */
  async open(token: string): Promise<NewSession | undefined> {
    const actor = await this.tokens.authenticate(token);
    if (!actor) return undefined;
    const id = randomBytes(32).toString('base64url');
    const csrf = await this.csrfOf(id);
    const now = this.now();
    const expiresAt = new Date(now + this.lifetimes.absoluteMs);
    const idleExpiresAt = new Date(Math.min(now + this.lifetimes.idleMs, expiresAt.getTime()));
    await this.db.query('INSERT INTO console_sessions (id_hash, csrf_hash, token_hash, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $4, $5)', [
      hex(id),
      hex(csrf),
      hex(token),
      new Date(now).toISOString(),
      expiresAt.toISOString(),
    ]);
    // Sessions long over are cleared by the sign-ins that follow them.
    await this.db.query('DELETE FROM console_sessions WHERE expires_at < $1', [new Date(now).toISOString()]);
    return { id, csrf, actor, idleExpiresAt, expiresAt, seconds: Math.round(this.lifetimes.absoluteMs / 1000) };
  }

  /**
   * The live session with id `id`, its idle lifetime moved on; undefined
   * when there is none (never opened, signed out, idle too long, past its
   * absolute lifetime, or its token revoked). `csrf`: the anti-forgery
   * value the request sent, which must match (else `forged`); undefined
   * skips that check (docs/console.md says when).
   */
  async touch(id: string, csrf: string | undefined): Promise<OpenSession | 'forged' | undefined> {
    const now = this.now();
    const [row] = await this.db.query<{ csrf_hash: string; token_hash: string; last_seen_at: Date | string; expires_at: Date | string }>(
      'SELECT csrf_hash, token_hash, last_seen_at, expires_at FROM console_sessions WHERE id_hash = $1',
      [hex(id)],
    );
    if (!row) return undefined;
    const expiresAt = new Date(row.expires_at);
    if (now >= expiresAt.getTime() || now >= new Date(row.last_seen_at).getTime() + this.lifetimes.idleMs) {
      await this.end(id);
      return undefined;
    }
    const actor = await this.tokens.authenticateHash(row.token_hash);
    if (!actor) {
      await this.end(id);
      return undefined;
    }
    if (csrf !== undefined && !sameHash(hex(csrf), row.csrf_hash)) return 'forged';
    await this.db.query('UPDATE console_sessions SET last_seen_at = $2 WHERE id_hash = $1', [hex(id), new Date(now).toISOString()]);
    return { actor, csrf: await this.csrfOf(id), expiresAt, idleExpiresAt: new Date(Math.min(now + this.lifetimes.idleMs, expiresAt.getTime())) };
  }

  /** Whether the session with id `id` is still live, without moving its idle lifetime on (a stream held open is not a request). */
  async live(id: string): Promise<boolean> {
    const now = this.now();
    const [row] = await this.db.query<{ token_hash: string; last_seen_at: Date | string; expires_at: Date | string }>(
      'SELECT token_hash, last_seen_at, expires_at FROM console_sessions WHERE id_hash = $1',
      [hex(id)],
    );
    if (!row || now >= new Date(row.expires_at).getTime() || now >= new Date(row.last_seen_at).getTime() + this.lifetimes.idleMs) return false;
    return (await this.tokens.authenticateHash(row.token_hash)) !== undefined;
  }

  /** Ends the session with id `id`, on every server. */
  async end(id: string): Promise<void> {
    await this.db.query('DELETE FROM console_sessions WHERE id_hash = $1', [hex(id)]);
  }
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
