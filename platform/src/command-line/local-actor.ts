import { userInfo } from 'node:os';

/**
 * The actor of what a command does straight on the database, with no token
 * (`local:<OS user>` in the audit log). The control API refuses token names
 * with this prefix, so no token can pass for a local user.
 */
export const LOCAL_ACTOR_PREFIX = 'local:';

/** `local:<the OS user running this process>`. */
export function localActor(): string {
  let name: string;
  try {
    name = userInfo().username;
  } catch {
    // A uid with no passwd entry (a container's arbitrary user).
    name = `uid-${process.getuid?.() ?? 'unknown'}`;
  }
  return `${LOCAL_ACTOR_PREFIX}${name}`;
}
