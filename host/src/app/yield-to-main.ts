/**
 * Lets the browser paint, take a tap or run other tasks before the page's
 * start-up goes on: start-up is several steps of tens of milliseconds each
 * on a phone, and run back to back they are one long task that blocks the
 * page (Total Blocking Time). `scheduler.yield()` where the browser has it
 * (the rest of start-up keeps its place in the queue), a task otherwise.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
