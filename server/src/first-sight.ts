import { LRUCache } from 'lru-cache';

/**
 * Whether a key is seen for the first time, among the `kept` keys most
 * recently seen: what is said at every request (a failing section, a
 * config.json note) is said once, and a stream of new keys (a config.json
 * that keeps changing) cannot grow the memory. A key seen again counts as
 * recent, so one repeated at every request stays known while others pass.
 */
export function firstSight(kept: number): (key: string) => boolean {
  const seen = new LRUCache<string, true>({ max: kept });
  return (key) => {
    // get, not has: only get makes the key the most recently used.
    if (seen.get(key)) return false;
    seen.set(key, true);
    return true;
  };
}

/** `log`, each distinct line once (firstSight over the last `kept` lines). */
export function onceEach(log: (line: string) => void, kept: number): (line: string) => void {
  const first = firstSight(kept);
  return (line) => {
    if (first(line)) log(line);
  };
}
