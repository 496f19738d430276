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

  test('resize counts an entry again (a compressed copy added), and lets go of old entries to stay in budget', () => {
    const cache = new ByteCache<string>(1000);
    for (const key of ['a', 'b', 'c']) cache.set(key, key, 200);
    cache.set('page', 'page', 200);
    cache.resize('page', 250);
    expect(cache.bytes).toBe(850);
    cache.resize('a', 250);
    cache.resize('b', 250);
    // a and b are now 250 each and recent, like page: c, the oldest, has made room.
    expect(cache.get('c')).toBeUndefined();
    expect(cache.bytes).toBeLessThanOrEqual(1000);
    expect(['a', 'b', 'page'].map((key) => cache.get(key))).toEqual(['a', 'b', 'page']);
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

  test('a flood of distinct keys of every size never takes it over its budget, and what it counts is what it holds', () => {
    const budget = 64 * 1024;
    const cache = new ByteCache<number>(budget);
    const held = new Map<string, number>();
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let index = 0; index < 20_000; index += 1) {
      const key = `/?q=${index}`;
      const bytes = Math.floor(random() * (budget / 3));
      cache.set(key, bytes, bytes);
      if (index % 7 === 0) cache.resize(`/?q=${index - 3}`, Math.floor(random() * (budget / 5)));
      if (index % 11 === 0) cache.get(`/?q=${index - 5}`);
      expect(cache.bytes).toBeLessThanOrEqual(budget);
    }
    // The count matches the entries: the sum of the sizes of what is still there.
    for (let index = 0; index < 20_000; index += 1) {
      const value = cache.get(`/?q=${index}`);
      if (value !== undefined) held.set(`/?q=${index}`, value);
    }
    expect(held.size).toBe(cache.size);
    expect(cache.size).toBeGreaterThan(0);
  });
});
