import { createHash } from 'node:crypto';
import type { SectionId } from '@portico/contract/sections';
import { FORM_TEXTS_ATTRIBUTE, type ContactFormTexts } from '@portico/contract/contact-form';
import { LRUCache } from 'lru-cache';
import { BrowserHtmlReader } from './browser-html';
import { SSR_LIMITS } from './render-limits';
import { checkAsRead, idsIn, refusalAsWritten, type SectionHtmlCheck } from './section-html';

/**
 * A section's checked HTML as a page takes it: its ids (no later part may
 * take one), its hash (for the page's key) and the words its form carries
 * for the server's answer to it, which are not in `html`: pages never carry them.
 */
export interface CheckedPart {
  html: string;
  ids: ReadonlySet<string>;
  hash: string;
  formTexts?: ContactFormTexts;
}

/** The part made of HTML the check accepted. */
export function partOf({ html, formTexts }: { html: string; formTexts?: ContactFormTexts }): CheckedPart {
  // The words are in the hash: builds that differ only in them make pages of their own, each answered in its own words.
  const hash = createHash('sha256')
    .update(html)
    .update(formTexts ? `\0${JSON.stringify(formTexts)}` : '')
    .digest('base64');
  return { html, ids: idsIn(html), hash, ...(formTexts ? { formTexts } : {}) };
}

/**
 * The check of section workers' HTML (section-html.ts), its parse by the HTML
 * standard's algorithm on a thread of its own (BrowserHtmlReader), kept by
 * section and hash: a worker answers the same bytes for the same build,
 * config and language, and the check (about 100-500 ms for 250 KB on a busy
 * core, most of it the parse) is then not paid again where pages are not
 * kept (PORTICO_SSR_CACHE=0) or a render's result has left the cache.
 */
export class CheckedHtml {
  private readonly checks = new LRUCache<string, Promise<SectionHtmlCheck>>({ max: 64 });
  private readonly reader = new BrowserHtmlReader();

  check(section: SectionId, html: unknown): Promise<SectionHtmlCheck> {
    const rules = { maxBytes: SSR_LIMITS.sectionHtmlBytes, section };
    if (typeof html !== 'string') return Promise.resolve(refusalAsWritten(html, rules)!);
    const key = `${section} ${createHash('sha256').update(html).digest('base64')}`;
    let checked = this.checks.get(key);
    if (!checked) this.checks.set(key, (checked = this.checkOnce(key, html, rules)));
    return checked;
  }

  close(): Promise<void> {
    return this.reader.close();
  }

  private async checkOnce(key: string, html: string, rules: { maxBytes: number; section: SectionId }): Promise<SectionHtmlCheck> {
    const refusal = refusalAsWritten(html, rules);
    if (refusal) return refusal;
    try {
      return checkAsRead(await this.reader.read(html, FORM_TEXTS_ATTRIBUTE), rules);
    } catch (error) {
      // Not kept: the thread may have died of another section's HTML, and these bytes are read again next time.
      this.checks.delete(key);
      return { ok: false, reason: `the HTML could not be read as a browser reads it (${(error as Error).message})` };
    }
  }
}
