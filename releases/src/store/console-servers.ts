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
export const SERVER_FORGOTTEN_MS = 24 * 3_600_000;

/** The servers on the database, from the heartbeat each writes every few seconds (server/src/control-plane.ts). */
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

  /** Every server seen within SERVER_FORGOTTEN_MS, the most recently started first. */
  async list(): Promise<{ id: string; host: string; port: number; pid: number; startedAt: string; releases: string[]; lastSeenAt: string }[]> {
    await this.db.query('DELETE FROM console_servers WHERE last_seen_at < now() - make_interval(secs => $1)', [SERVER_FORGOTTEN_MS / 1000]);
    const rows = await this.db.query<{
      id: string;
      host: string;
      port: number;
      pid: number;
      started_at: Date | string;
      releases: string[];
      last_seen_at: Date | string;
    }>('SELECT id, host, port, pid, started_at, releases, last_seen_at FROM console_servers ORDER BY started_at DESC, id');
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
