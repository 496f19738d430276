/**
 * A section's HTML as a browser reads it. The check in section-html.ts reads
 * markup as text; a browser reads it with the HTML standard's tokenizer and
 * tree builder, which differ from any hand-written reading in places an
 * attacker picks (a tag name ends only at a tab, line feed, form feed, space,
 * `/` or `>`, so `<div\u00a0>` is an unknown element named "div\u00a0" whose
 * `</div>` closes the section's own container). So the HTML is parsed here by
 * parse5, the parser jsdom uses and that follows the standard's algorithm
 * step by step, in the context of the slot's `<div>`, and written out again
 * from the tree it built: the check then reads that text, and that text, not
 * the worker's, is what a page gets. Its end tags close exactly the elements
 * it opens, and the check's placement rules (html-placement.ts) keep it to
 * what the page's parser reads back element for element
 * (section-html-in-a-browser.test.ts).
 */
import { defaultTreeAdapter, html as HTML, parseFragment, serialize } from 'parse5';

/** The slot a section's HTML is put in: a <div> (`.section-root`) inside the page's body. */
const SLOT = defaultTreeAdapter.createElement('div', HTML.NS.HTML, []);

/**
 * `text` parsed as the content of the slot and written out from the tree.
 * Without parse errors reported: asking for them makes parse5 track every
 * token's place, which doubled the parse of a 250 KB section, and the check
 * refuses on its own what the tokenizer would call an error and a browser
 * would read otherwise (an end tag with attributes, attributes not apart).
 */
export function readAsBrowser(text: string): string {
  return serialize(parseFragment(SLOT, text, {}));
}
