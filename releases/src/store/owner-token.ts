import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONTROL_TOKEN_FILE } from '@portico/platform/control-address';
import type { Database } from '@portico/platform/database';
import { ALL_SCOPES, OWNER_TOKEN_NAME, SERVER_ACTOR } from '../scopes';
import { recordAudit } from './audit-log';
import { hashOf } from './tokens';

/**
 * The owner token a fresh install makes for itself, so that the commands on
 * the server's machine work with nothing set: a token with every scope,
 * written to the data folder's control-token file (0600).
 */
export class OwnerToken {
  /** `environmentToken`: PORTICO_CONTROL_TOKEN; while it is set, the operator has a token and none is made. */
  constructor(
    private readonly db: Database,
    private readonly environmentToken: string | undefined,
  ) {}

  /**
   * At a fresh install's first start: when no owner token lives and
   * PORTICO_CONTROL_TOKEN is unset, creates one with every scope and writes
   * it to `<dataDir>/control-token` (0600), where the commands on this
   * machine read it. Answers the file's path when it wrote one.
   */
  async ensure(dataDir: string): Promise<string | undefined> {
    if (this.environmentToken) return undefined;
    return this.db.transaction(async (sql) => {
      const token = randomBytes(32).toString('base64url');
      const [inserted] = await sql.query<{ id: string }>(
        `INSERT INTO release_tokens (name, scopes, hash, owner, created_by) VALUES ($1, $2::text[], $3, true, $4)
         ON CONFLICT DO NOTHING RETURNING id`,
        [OWNER_TOKEN_NAME, [...ALL_SCOPES], hashOf(token).toString('hex'), SERVER_ACTOR],
      );
      if (!inserted) return undefined;
      const file = path.join(dataDir, CONTROL_TOKEN_FILE);
      // Written before the commit: a token that cannot be written is not created.
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
      try {
        writeFileSync(temporary, `${token}\n`, { mode: 0o600, flag: 'wx' });
        renameSync(temporary, file);
      } finally {
        rmSync(temporary, { force: true });
      }
      await recordAudit(sql, {
        actor: SERVER_ACTOR,
        action: 'token',
        detail: `created ${OWNER_TOKEN_NAME} (${ALL_SCOPES.join(', ')}) at first start, written to ${file}`,
      });
      return file;
    });
  }
}
