/**
 * Rendered pages by key, for the live worker generation only. A page is
 * looked up under the generation that is live, and a generation never comes
 * back once another replaces it (a dead worker's successor is a new one), so
 * at each switch every older entry is dropped: left to age out of the size
 * bound, each would hold its HTML and compressed copies long after it could
 * be hit again, generation after generation.
 */
export class PageCache<T> {
  private readonly entries = new Map<string, T>();
  private generation: number | undefined;

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, generation: number | undefined): T | undefined {
    return generation === this.generation ? this.entries.get(key) : undefined;
  }

  /** Keeps `value`, unless it was rendered by a generation that is no longer live. */
  set(key: string, generation: number | undefined, value: T): void {
    if (generation === undefined || generation !== this.generation) return;
    // The oldest entry first: the key holds the visitor's query, so the number of keys is theirs.
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }

  /** A new generation is live (or none is): nothing cached before can be hit again. */
  live(generation: number | undefined): void {
    if (generation === this.generation) return;
    this.generation = generation;
    this.entries.clear();
  }
}
