/*
 * The server-rendered page is whole without script, so its first paint must
 * not wait for the page's script: a deferred script runs as soon as the
 * stylesheets have loaded, before the browser paints, and on a phone that
 * is hundreds of milliseconds of the Module Federation runtime and React
 * between the HTML and the first paint. The server links the script as a
 * preload (downloaded at once, run never) and this file, which starts it
 * right after the next paint. A page in a background tab gets no animation
 * frames, so there it starts at once, or when the tab is hidden before its
 * frame came. The server adds this to its page only; the client-rendered
 * page runs its script as built.
 */
(function () {
  var current = document.currentScript;
  var src = current && current.getAttribute('data-src');
  if (!src) return;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    document.removeEventListener('visibilitychange', start);
    var script = document.createElement('script');
    script.src = src;
    document.head.appendChild(script);
  }
  if (document.visibilityState === 'hidden') return start();
  document.addEventListener('visibilitychange', start);
  // A frame callback runs just before its frame is painted: the second one
  // comes once the first frame is out.
  requestAnimationFrame(function () {
    requestAnimationFrame(start);
  });
})();
