import { LRUCache } from 'lru-cache';

/**
 * Values by key, least recently used first out, bounded by the bytes they
 * hold rather than by their number: the server-rendered page inlines
 * manifests and section HTML whose size their teams choose, so a count bound
 * would let a few large pages take the server's memory. An lru-cache bounded
 * by size (the one cache type of the server), with what the page cache needs
 * beside: an entry counted again as it grows, and the entries a rule drops.
 */
export class ByteCache<T extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, T>;

  constructor(maxBytes: number) {
    // A value over a quarter of the budget is not kept at all: one page never takes out all the others.
    this.entries = new LRUCache({ maxSize: Math.max(1, maxBytes), maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)) });
  }

  get size(): number {
    return this.entries.size;
  }

  /** The bytes held now. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  /** The value kept for `key`, which becomes the most recently used. */
  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` as `bytes` large (at least one: an empty value still holds its entry); too large, not kept, and what `key` held goes. */
  set(key: string, value: T, bytes: number): void {
    // Deleted first: lru-cache counts a size again only for a new value, and a grown page is the same value.
    this.entries.delete(key);
    this.entries.set(key, value, { size: Math.max(1, Math.ceil(bytes)) });
  }

  /** A value grew (a compressed copy was added): its size is counted again, and the budget kept. */
  resize(key: string, bytes: number): void {
    const value = this.entries.peek(key);
    if (value !== undefined) this.set(key, value, bytes);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry `drop` says: the pages of a build no longer served. */
  deleteWhere(drop: (key: string, value: T) => boolean): void {
    // Chosen first, deleted after: the cache's order is not walked while it changes.
    const gone = [...this.entries.entries()].filter(([key, value]) => drop(key, value));
    for (const [key] of gone) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
