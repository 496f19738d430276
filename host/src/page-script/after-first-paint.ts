/**
 * Calls `start` once the browser has reported the page's first contentful
 * paint: work started before it (a deferred script runs before the first
 * paint once the stylesheets are in) would stand between the HTML and the
 * screen, on a phone for hundreds of milliseconds. A page in a background
 * tab paints nothing, so there `start` runs at once (or when the tab is
 * hidden before its paint came); a browser that reports no paints runs it
 * two frames on; and should the paint never be reported, after 3 s.
 */
export function afterFirstPaint(start: () => void): void {
  let started = false;
  const types = (typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes) || [];
  const observer = types.includes('paint')
    ? new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length > 0) once();
      })
    : undefined;
  const once = () => {
    if (started) return;
    started = true;
    document.removeEventListener('visibilitychange', once);
    observer?.disconnect();
    start();
  };
  if (document.visibilityState === 'hidden') return once();
  document.addEventListener('visibilitychange', once);
  if (!observer) {
    requestAnimationFrame(() => requestAnimationFrame(once));
    return;
  }
  observer.observe({ type: 'paint', buffered: true });
  setTimeout(once, 3000);
}
