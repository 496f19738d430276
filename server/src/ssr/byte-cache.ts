/**
 * Values by key, least recently used first out, bounded by the bytes they
 * hold rather than by their number: the server-rendered page inlines
 * manifests and section HTML whose size their teams choose, so a count bound
 * would let a few large pages take the server's memory.
 */
export class ByteCache<T> {
  private readonly entries = new Map<string, { value: T; bytes: number }>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The bytes held now. */
  get bytes(): number {
    return this.total;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` as `bytes` large; a value over a quarter of the budget is not kept at all. */
  set(key: string, value: T, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes / 4) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
    }
  }

  /** A value grew (a compressed copy was added): its size is counted again, and the budget kept. */
  resize(key: string, bytes: number): void {
    const entry = this.entries.get(key);
    if (entry) this.set(key, entry.value, bytes);
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  /** Drops every entry `drop` says: the pages of a build no longer served. */
  deleteWhere(drop: (key: string, value: T) => boolean): void {
    for (const [key, entry] of this.entries) if (drop(key, entry.value)) this.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}
