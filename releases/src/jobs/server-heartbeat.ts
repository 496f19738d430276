import { randomUUID } from 'node:crypto';
import type { Releases } from '../store/releases';
import type { ConsoleServers } from '../console/console-servers';
import { systemClock, type JobClock } from './job-clock';

/** How often this server writes its heartbeat row (the console's list of servers and what each serves). */
const HEARTBEAT_MS = 5000;

export interface ServerHeartbeatOptions {
  store: { releases: Pick<Releases, 'served'>; servers: Pick<ConsoleServers, 'beat' | 'leave'> };
  /** Which server this is, as the console lists it. */
  server: { host: string; port: number; pid: number };
  /** The start time written and the timer (the system's by default; a test's hand-turned one). */
  clock?: JobClock;
}

export interface ServerHeartbeat {
  /** Stops beating and leaves the console's list of servers. */
  close(): Promise<void>;
}

/**
 * The heartbeat: which server this is and which releases it serves, written
 * at once and every HEARTBEAT_MS for the console's overview. A beat missed
 * (the database away) is written at the next one, and says nothing: the
 * console shows the server as not seen lately.
 */
export function startServerHeartbeat(options: ServerHeartbeatOptions): ServerHeartbeat {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const beat = { id: randomUUID(), ...options.server, startedAt: clock.now() };
  const heartbeat = async () => {
    const { active, canaries } = await store.releases.served();
    // Every section served (retired ones are not), the added ones too.
    const releases = [...Object.values(active).map((release) => release?.id), ...Object.values(canaries).map((canary) => canary?.release.id)].filter(
      (id): id is string => id !== undefined,
    );
    await store.servers.beat({ ...beat, releases });
  };
  let beating: Promise<void> = Promise.resolve();
  const beatNow = () => (beating = beating.then(heartbeat).catch(() => undefined));
  void beatNow();
  const stop = clock.every(HEARTBEAT_MS, () => void beatNow());
  return {
    async close() {
      stop();
      await beating;
      await store.servers.leave(beat.id).catch(() => undefined);
    },
  };
}
