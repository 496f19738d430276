import { ByteCache } from '../byte-cache';

// The page cache holds pages whose size the section teams choose: what
// matters is the bytes it holds, whatever the keys and sizes it is given.

describe('a cache bounded in bytes', () => {
  test('keeps what fits and gives it back by key', () => {
    const cache = new ByteCache<string>(1000);
    cache.set('/en', 'english page', 200);
    cache.set('/fr', 'page française', 250);
    expect(cache.get('/en')).toBe('english page');
    expect(cache.get('/fr')).toBe('page française');
    expect(cache.get('/de')).toBeUndefined();
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(450);
  });

  test('full, it lets go of the least recently used first', () => {
    const cache = new ByteCache<string>(1000);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, key, 250);
    cache.set('e', 'e', 250);
    expect(cache.get('a')).toBeUndefined();
    expect(['b', 'c', 'd', 'e'].map((key) => cache.get(key))).toEqual(['b', 'c', 'd', 'e']);
    expect(cache.bytes).toBe(1000);
  });

  test('reading an entry makes it recent: the next to go is the one read least lately', () => {
    const cache = new ByteCache<string>(1000);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, key, 250);
    cache.get('a');
    cache.set('e', 'e', 250);
    expect(cache.get('a')).toBe('a');
    expect(cache.get('b')).toBeUndefined();
  });

  test('one large entry makes room by letting go of as many old ones as it takes', () => {
    const cache = new ByteCache<string>(1000);
    for (let index = 0; index < 10; index += 1) cache.set(`small ${index}`, 'x', 100);
    cache.set('large', 'x', 250);
    expect(cache.get('large')).toBe('x');
    expect(cache.get('small 0')).toBeUndefined();
    expect(cache.get('small 2')).toBeUndefined();
    expect(cache.get('small 3')).toBe('x');
    expect(cache.bytes).toBe(950);
  });

  test('a value over a quarter of the budget is not kept, and takes nothing else out', () => {
    const cache = new ByteCache<string>(1000);
    cache.set('kept', 'x', 250);
    cache.set('too large', 'y', 251);
    expect(cache.get('too large')).toBeUndefined();
    expect(cache.get('kept')).toBe('x');
    expect(cache.bytes).toBe(250);
  });

  test('setting a key again replaces its value and its size; too large, the old value goes too', () => {
    const cache = new ByteCache<string>(1000);
    cache.set('/en', 'old', 100);
    cache.set('/en', 'new', 150);
    expect(cache.get('/en')).toBe('new');
    expect(cache.bytes).toBe(150);
    cache.set('/en', 'huge', 600);
    expect(cache.get('/en')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  test('resize counts an entry again (a compressed copy added), and lets go of the oldest to stay in budget', () => {
    const cache = new ByteCache<string>(1000);
    for (const key of ['a', 'b', 'c', 'd', 'page']) cache.set(key, key, 200);
    expect(cache.bytes).toBe(1000);
    cache.resize('page', 250);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.bytes).toBe(850);
    expect(['b', 'c', 'd', 'page'].map((key) => cache.get(key))).toEqual(['b', 'c', 'd', 'page']);
  });

  test('resize over a quarter of the budget drops the entry; resize of an unknown key does nothing', () => {
    const cache = new ByteCache<string>(1000);
    cache.set('page', 'page', 200);
    cache.resize('page', 400);
    expect(cache.get('page')).toBeUndefined();
    expect(cache.bytes).toBe(0);
    cache.resize('never set', 10);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  test('deleteWhere drops what it is told (the pages of a build no longer served) and counts their bytes out', () => {
    const cache = new ByteCache<{ build: string }>(10_000);
    cache.set('home old 1', { build: 'old' }, 100);
    cache.set('home new 1', { build: 'new' }, 200);
    cache.set('home old 2', { build: 'old' }, 300);
    cache.set('about new', { build: 'new' }, 400);
    cache.deleteWhere((_key, value) => value.build === 'old');
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(600);
    expect(cache.get('home old 1')).toBeUndefined();
    expect(cache.get('about new')).toEqual({ build: 'new' });
    cache.deleteWhere((key) => key.startsWith('about'));
    expect(cache.bytes).toBe(200);
  });

  test('an empty value is kept and counts one byte (its entry is not free)', () => {
    const cache = new ByteCache<string>(1000);
    cache.set('empty', '', 0);
    expect(cache.get('empty')).toBe('');
    expect(cache.bytes).toBe(1);
  });

  test('delete and clear count the bytes out', () => {
    const cache = new ByteCache<string>(1000);
    cache.set('a', 'a', 100);
    cache.set('b', 'b', 100);
    cache.delete('a');
    cache.delete('never set');
    expect(cache.bytes).toBe(100);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    expect(cache.get('b')).toBeUndefined();
  });

  test('a flood of distinct keys of every size never takes it over its budget, and the bytes it counts are those it holds', () => {
    const budget = 64 * 1024;
    const cache = new ByteCache<string>(budget);
    // Each key is set once: once let go, it never comes back, so the last size given for a key still held is its size.
    const lastSize = new Map<string, number>();
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let index = 0; index < 20_000; index += 1) {
      const key = `/?q=${index}`;
      const bytes = Math.floor(random() * (budget / 3));
      cache.set(key, key, bytes);
      lastSize.set(key, bytes);
      if (index % 7 === 0) {
        const grown = `/?q=${index - 3}`;
        const bytes = Math.floor(random() * (budget / 5));
        cache.resize(grown, bytes);
        lastSize.set(grown, bytes);
      }
      if (index % 11 === 0) cache.get(`/?q=${index - 5}`);
      expect(cache.bytes).toBeLessThanOrEqual(budget);
    }
    const held = [...lastSize.keys()].filter((key) => cache.get(key) !== undefined);
    expect(held.length).toBe(cache.size);
    expect(held.length).toBeGreaterThan(3);
    expect(held.reduce((sum, key) => sum + lastSize.get(key)!, 0)).toBe(cache.bytes);
  });
});
