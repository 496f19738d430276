import { PageCache } from '../page-cache';

describe('the page cache holds the live generation only', () => {
  test('a page is found under the generation that rendered it', () => {
    const cache = new PageCache<string>(10);
    cache.live(1);
    cache.set('/?type=2', 1, 'page 1');
    expect(cache.get('/?type=2', 1)).toBe('page 1');
    expect(cache.get('/', 1)).toBeUndefined();
  });

  test('after a renewal, the older generation\'s pages are dropped, not left to age out', () => {
    const cache = new PageCache<string>(10);
    cache.live(1);
    cache.set('/', 1, 'old /');
    cache.set('/?type=2', 1, 'old /?type=2');
    expect(cache.size).toBe(2);

    cache.live(2);
    expect(cache.size).toBe(0);
    expect(cache.get('/', 1)).toBeUndefined();
    expect(cache.get('/', 2)).toBeUndefined();
    cache.set('/', 2, 'new /');
    expect(cache.get('/', 2)).toBe('new /');
    expect(cache.size).toBe(1);
  });

  test('a page the replaced worker finishes after the switch is not kept', () => {
    const cache = new PageCache<string>(10);
    cache.live(1);
    cache.live(2);
    cache.set('/', 1, 'late from 1');
    expect(cache.size).toBe(0);
    expect(cache.get('/', 1)).toBeUndefined();
  });

  test('with no worker live nothing is kept, and the dead one\'s pages are gone', () => {
    const cache = new PageCache<string>(10);
    cache.live(3);
    cache.set('/', 3, 'page');
    cache.live(undefined);
    expect(cache.size).toBe(0);
    cache.set('/', undefined, 'no worker');
    expect(cache.size).toBe(0);
  });

  test('many generations in a row leave one generation\'s pages', () => {
    const cache = new PageCache<string>(500);
    for (let generation = 1; generation <= 50; generation += 1) {
      cache.live(generation);
      for (const key of ['/', '/?type=2', '/index.html']) cache.set(key, generation, `${key} of ${generation}`);
    }
    expect(cache.size).toBe(3);
    expect(cache.get('/', 50)).toBe('/ of 50');
  });

  test('at its bound the oldest page goes first; a page set again keeps its place', () => {
    const cache = new PageCache<string>(2);
    cache.live(1);
    cache.set('a', 1, 'a');
    cache.set('b', 1, 'b');
    cache.set('b', 1, 'b again');
    expect(cache.size).toBe(2);
    cache.set('c', 1, 'c');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBe('b again');
    expect(cache.get('c', 1)).toBe('c');
  });
});
