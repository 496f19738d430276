/*
 * The server-rendered page is whole without script, so its first paint must
 * not wait for the page's script: a deferred script runs as soon as the
 * stylesheets have loaded, before the browser paints, and on a phone that
 * is hundreds of milliseconds of the Module Federation runtime and React
 * between the HTML and the first paint. The server links the script as a
 * preload (downloaded at once, run never) and this file, which starts it
 * once the browser reports the first contentful paint (a frame callback is
 * not enough: the frame reaches the screen later). A page in a background
 * tab paints nothing, so there it starts at once, or when the tab is hidden
 * before its paint came; a browser that reports no paints starts it two
 * frames on. The server adds this to its page only; the client-rendered
 * page runs its script as built.
 */
(function () {
  var current = document.currentScript;
  var src = current && current.getAttribute('data-src');
  if (!src) return;
  var started = false;
  var observer;
  function start() {
    if (started) return;
    started = true;
    document.removeEventListener('visibilitychange', start);
    if (observer) observer.disconnect();
    var script = document.createElement('script');
    script.src = src;
    document.head.appendChild(script);
  }
  if (document.visibilityState === 'hidden') return start();
  document.addEventListener('visibilitychange', start);
  var types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (types.indexOf('paint') === -1) {
    requestAnimationFrame(function () {
      requestAnimationFrame(start);
    });
    return;
  }
  observer = new PerformanceObserver(function (list) {
    if (list.getEntriesByName('first-contentful-paint').length > 0) start();
  });
  observer.observe({ type: 'paint', buffered: true });
  // Should the paint never be reported, the page still comes alive.
  setTimeout(start, 3000);
})();
