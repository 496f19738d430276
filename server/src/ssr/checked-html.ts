import { createHash } from 'node:crypto';
import type { SectionId } from '@portico/contract/sections';
import { LRUCache } from 'lru-cache';
import { SSR_LIMITS } from './render-limits';
import { checkSectionHtml, type SectionHtmlCheck } from './section-html';

/**
 * The check of section workers' HTML, kept by section and hash: a worker
 * answers the same bytes for the same build, config and language, and the
 * check (a parse by the HTML standard's parser, about 130 ms for 250 KB on a
 * busy core) is then not paid again where pages are not kept
 * (PORTICO_SSR_CACHE=0) or a render's result has left the cache.
 */
export class CheckedHtml {
  private readonly checks = new LRUCache<string, SectionHtmlCheck>({ max: 64 });

  check(section: SectionId, html: unknown): SectionHtmlCheck {
    const rules = { maxBytes: SSR_LIMITS.sectionHtmlBytes, section };
    if (typeof html !== 'string') return checkSectionHtml(html, rules);
    const key = `${section} ${createHash('sha256').update(html).digest('base64')}`;
    let checked = this.checks.get(key);
    if (!checked) this.checks.set(key, (checked = checkSectionHtml(html, rules)));
    return checked;
  }
}
