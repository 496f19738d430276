// A section's HTML read by the HTML standard's algorithm (parse5) and written
// out from the tree it built; why, in browser-html.ts. Plain JavaScript
// because it also runs as a worker thread of its own (browser-html.ts's
// BrowserHtmlReader), under node, tsx and jest alike, with no transform: a
// 250 KB section takes 70-500 ms to parse (the first parse in a process is
// the slowest), which on the server's event loop would hold every other
// visitor's answer and every page's deadline.
'use strict';
const { isMainThread, parentPort } = require('node:worker_threads');
const { defaultTreeAdapter, html: HTML, parseFragment, serialize } = require('parse5');

/** The slot a section's HTML is put in: a <div> (`.section-root`) inside the page's body. */
const SLOT = defaultTreeAdapter.createElement('div', HTML.NS.HTML, []);

/**
 * `text` parsed as the content of the slot and written out from the tree.
 * Without parse errors reported: asking for them makes parse5 track every
 * token's place, which doubled the parse of a 250 KB section, and the check
 * refuses on its own what the tokenizer would call an error and a browser
 * would read otherwise (an end tag with attributes, attributes not apart).
 * @param {string} text
 * @returns {string}
 */
function readAsBrowser(text) {
  return serialize(parseFragment(SLOT, text, {}));
}

if (!isMainThread && parentPort) {
  parentPort.on('message', ({ id, text }) => {
    try {
      parentPort.postMessage({ id, html: readAsBrowser(text) });
    } catch (error) {
      // Nesting deep enough to overflow the serialiser's stack, say: that HTML is refused, and the thread lives on.
      parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}

module.exports = { readAsBrowser };
