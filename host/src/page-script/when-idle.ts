// The page script's work that waits until the page is idle after its first
// paint: one chunk, fetched then (each chunk costs the page its integrity
// hash), out of the page's first window.
export { reportPageWarnings } from './page-warnings';
export { warmIslands } from './warm-islands';
