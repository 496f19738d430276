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

/**
 * `attribute` taken off every element of the tree (walked without recursion:
 * a section may nest deeply), and the value the first <form> had: words a
 * section's form carries for the server alone (contract/src/contact-form.ts),
 * which then never reach a visitor's page.
 * @param {import('parse5').DefaultTreeAdapterMap['parentNode']} root
 * @param {string} attribute
 * @returns {string | undefined}
 */
function takeAttribute(root, attribute) {
  let taken;
  // In document order: each node's children go on the stack last first.
  const stack = [...root.childNodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!defaultTreeAdapter.isElementNode(node)) continue;
    const at = node.attrs.findIndex((attr) => attr.name === attribute);
    if (at !== -1) {
      const [removed] = node.attrs.splice(at, 1);
      if (taken === undefined && node.tagName === 'form') taken = removed.value;
    }
    for (let child = node.childNodes.length - 1; child >= 0; child -= 1) stack.push(node.childNodes[child]);
  }
  return taken;
}

/**
 * `readAsBrowser`, with `attribute` taken out of the HTML and given back
 * apart (`taken`: the first form's value of it, if any).
 * @param {string} text
 * @param {string} attribute
 * @returns {{ html: string, taken: string | undefined }}
 */
function readSectionAsBrowser(text, attribute) {
  const tree = parseFragment(SLOT, text, {});
  const taken = takeAttribute(tree, attribute);
  return { html: serialize(tree), taken };
}

if (!isMainThread && parentPort) {
  parentPort.on('message', ({ id, text, attribute }) => {
    try {
      parentPort.postMessage({ id, ...readSectionAsBrowser(text, attribute) });
    } catch (error) {
      // Nesting deep enough to overflow the serialiser's stack, say: that HTML is refused, and the thread lives on.
      parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
}

module.exports = { readAsBrowser, readSectionAsBrowser };
