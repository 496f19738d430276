/**
 * A section's HTML as a browser reads it. The check in section-html.ts reads
 * markup as text; a browser reads it with the HTML standard's tokenizer and
 * tree builder, which differ from any hand-written reading in places an
 * attacker picks (a tag name ends only at a tab, line feed, form feed, space,
 * `/` or `>`, so `<div\u00a0>` is an unknown element named "div\u00a0" whose
 * `</div>` closes the section's own container). So the HTML is parsed by
 * parse5, the parser jsdom uses and that follows the standard's algorithm
 * step by step, in the context of the slot's `<div>`, and written out again
 * from the tree it built (browser-html-parse.cjs): the check then reads that
 * text, and that text, not the worker's, is what a page gets. Its end tags
 * close exactly the elements it opens, and the check's placement rules
 * (html-placement.ts) keep it to what the page's parser reads back element
 * for element (section-html-in-a-browser.test.ts). The same tree gives up
 * the words a section's form carries for the server alone
 * (`data-form-texts`, issue 49), so no page carries them.
 */
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import type { SectionReading } from './browser-html-parse.cjs';

export type { SectionReading };

// The reading on this thread (tests, and checkSectionHtml), parse5 with it,
// is required on its first use: the server reads on its thread
// (BrowserHtmlReader), and loading parse5 at its start cost 20-180 ms,
// depending on the machine's load (issue 47).
type OnThisThread = typeof import('./browser-html-parse.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
const onThisThread = () => require('./browser-html-parse.cjs') as OnThisThread;

/** browser-html-parse.cjs's `readAsBrowser`, on this thread. */
export const readAsBrowser: OnThisThread['readAsBrowser'] = (text) => onThisThread().readAsBrowser(text);
/** browser-html-parse.cjs's `readSectionAsBrowser`, on this thread. */
export const readSectionAsBrowser: OnThisThread['readSectionAsBrowser'] = (text, attribute) => onThisThread().readSectionAsBrowser(text, attribute);

type Reply = ({ id: number } & SectionReading) | { id: number; error: string };

/**
 * `readAsBrowser` on a worker thread of the server's own (trusted code, no
 * section's): the event loop goes on answering visitors and firing pages'
 * deadlines while a big section is parsed. One thread, started on first use
 * and again after it dies; it does not keep the process alive.
 */
export class BrowserHtmlReader {
  private thread: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, { thread: Worker; resolve: (read: SectionReading) => void; reject: (error: Error) => void }>();

  /** `readSectionAsBrowser(text, attribute)` on the thread. */
  read(text: string, attribute: string): Promise<SectionReading> {
    const thread = this.thread ?? this.start();
    const id = this.nextId++;
    return new Promise<SectionReading>((resolve, reject) => {
      this.waiting.set(id, { thread, resolve, reject });
      thread.postMessage({ id, text, attribute });
    });
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    if (thread) await thread.terminate();
  }

  private start(): Worker {
    const thread = new Worker(path.join(__dirname, 'browser-html-parse.cjs'));
    thread.unref();
    thread.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if ('error' in reply) waiter?.reject(new Error(reply.error));
      else waiter?.resolve({ html: reply.html, taken: reply.taken });
    });
    const failAll = (error: Error) => {
      if (this.thread === thread) this.thread = undefined;
      for (const [id, waiter] of this.waiting) {
        if (waiter.thread !== thread) continue;
        this.waiting.delete(id);
        waiter.reject(error);
      }
    };
    thread.on('error', failAll);
    thread.on('exit', (code) => failAll(new Error(`the HTML parser's thread stopped (exit code ${code})`)));
    this.thread = thread;
    return thread;
  }
}
