import { watchedStamp } from '@portico/config-server/file-stamp';
import type { Site } from '../site-context';
import type { CachedPage } from './page-cache';
import { LRUCache } from 'lru-cache';

/** A page remembered for an address, with the template's stamp it was made from. */
interface KnownPage {
  page: CachedPage;
  template: string;
}

/** Addresses remembered per site. */
const KNOWN_ADDRESSES = 256;

const addressKey = (pathname: string, search: string, origin: string | undefined) => `${pathname} ${origin ?? ''} ${search}`;

/**
 * The whole pages last served per site (one per version of config.json and
 * releases served) and address: the next request for the same address is
 * answered from here, its 304 included, without asking the stages again,
 * as long as the page is still kept and the template unchanged. Only a
 * page with every section it could have (none left to the browser) is
 * remembered: any other goes through the stages again, which may now fill it.
 */
export class KnownPages {
  private readonly known = new WeakMap<Site, LRUCache<string, KnownPage>>();

  constructor(private readonly templateFile: string) {}

  /** The page last served at this address, if `isKept` still holds it and the template is the one it was made from. */
  get(site: Site, pathname: string, search: string, origin: string | undefined, isKept: (page: CachedPage) => boolean): CachedPage | undefined {
    const known = this.known.get(site)?.get(addressKey(pathname, search, origin));
    if (!known || !isKept(known.page) || known.template !== watchedStamp(this.templateFile)) return undefined;
    return known.page;
  }

  /** `page`, made from the template whose stamp was `template` (undefined: not known, never remembered). */
  remember(site: Site, pathname: string, search: string, origin: string, template: string | undefined, page: CachedPage): void {
    if (template === undefined) return;
    let pages = this.known.get(site);
    // Visitors choose the query: bounded, the addresses least recently asked for forgotten first.
    if (!pages) this.known.set(site, (pages = new LRUCache({ max: KNOWN_ADDRESSES })));
    pages.set(addressKey(pathname, search, origin), { page, template });
  }
}
