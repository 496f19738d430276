// The shell's styles load with the page, render-blocking and small, so the
// header index.html draws is styled at the first paint.
import '@portico/shared-config/base.css';
import './app/app.css';
import { PAGE_DATA_ID } from '@portico/contract/page-parts';

// In a task of its own: evaluating this file starts Module Federation's
// runtime, and negotiating the shared modules for the imports below is as
// much work again; back to back they were one long task on a phone.
setTimeout(() => {
  // React's chunk is requested now, beside bootstrap's, not after it;
  // bootstrap waits for it and reports a failure to load it. The two
  // modules are one chunk ("start"): always fetched together, one request
  // and one file's headers fewer (issue 50).
  const page = import(/* webpackChunkName: "start" */ './app/render-page');
  page.catch(() => undefined);
  // A page the server did not render reads config.json with the reader (zod)
  // in a chunk of its own, requested now beside bootstrap's, not after it.
  if (!document.getElementById(PAGE_DATA_ID)) void import(/* webpackChunkName: "client-page" */ './start-client-page').catch(() => undefined);
  // The async boundary: shared modules (React, shared-config) are negotiated by
  // Module Federation before bootstrap's static imports run.
  void import(/* webpackChunkName: "start" */ './bootstrap').then(({ startPage }) => startPage(page));
}, 0);
