import type { SectionId } from '@portico/contract/sections';
import type { Database } from '@portico/platform/database';

/** A server on the database as its heartbeat says it. */
export interface ServerBeat {
  id: string;
  host: string;
  port: number;
  pid: number;
  startedAt: Date;
  /** The release ids it serves. */
  releases: readonly string[];
}

/** A server not seen for this long is gone from the list (a crash leaves its row behind). */
const SERVER_FORGOTTEN_MS = 24 * 3_600_000;

/** The servers on the database, from the heartbeat each writes every few seconds (../jobs/server-heartbeat.ts). */
export class ConsoleServers {
  constructor(private readonly db: Database) {}

  /** This server is alive and serves `beat.releases` now. */
  async beat(beat: ServerBeat): Promise<void> {
    await this.db.query(
      `INSERT INTO console_servers (id, host, port, pid, started_at, releases, last_seen_at) VALUES ($1, $2, $3, $4, $5, $6::text[], now())
       ON CONFLICT (id) DO UPDATE SET releases = excluded.releases, last_seen_at = now()`,
      [beat.id, beat.host, beat.port, beat.pid, beat.startedAt.toISOString(), [...beat.releases]],
    );
  }

  /** The server stopped: it leaves the list. */
  async leave(id: string): Promise<void> {
    await this.db.query('DELETE FROM console_servers WHERE id = $1', [id]);
  }

  /**
   * Every server seen within SERVER_FORGOTTEN_MS, the most recently started
   * first; with `sections`, each server's releases of those sections alone
   * (what a section token may see of it).
   */
  async list(
    sections?: readonly SectionId[],
  ): Promise<{ id: string; host: string; port: number; pid: number; startedAt: string; releases: string[]; lastSeenAt: string }[]> {
    await this.db.query('DELETE FROM console_servers WHERE last_seen_at < now() - make_interval(secs => $1)', [SERVER_FORGOTTEN_MS / 1000]);
    const rows = await this.db.query<{
      id: string;
      host: string;
      port: number;
      pid: number;
      started_at: Date | string;
      releases: string[];
      last_seen_at: Date | string;
    }>(
      `SELECT id, host, port, pid, started_at, last_seen_at, ${
        sections === undefined
          ? 'releases'
          : `ARRAY(SELECT served.id FROM unnest(s.releases) WITH ORDINALITY AS served (id, n) JOIN releases r ON r.id = served.id
                   WHERE r.section = ANY($1::text[]) ORDER BY served.n) AS releases`
      } FROM console_servers s ORDER BY started_at DESC, id`,
      sections === undefined ? [] : [[...sections]],
    );
    return rows.map((row) => ({
      id: row.id,
      host: row.host,
      port: row.port,
      pid: row.pid,
      startedAt: new Date(row.started_at).toISOString(),
      releases: row.releases,
      lastSeenAt: new Date(row.last_seen_at).toISOString(),
    }));
  }
}
