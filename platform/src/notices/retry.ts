/** The wait before attempt `attempt + 1` of a notice: 10 s, 20 s, 40 s, ... up to an hour; ten attempts span about 2.5 hours. */
export function backoffSeconds(attempt: number, firstSeconds = 10): number {
  return Math.min(3600, firstSeconds * 2 ** (attempt - 1));
}
