import { loadPack } from '../load-pack';

test('loadPack fetches each language once and resolves to its texts', async () => {
  const [english, indonesian] = await Promise.all([loadPack('en'), loadPack('id')]);
  expect(english.nav.tabs.home).toBe('Home');
  expect(indonesian.nav.tabs.home).toBe('Beranda');
  expect(loadPack('id')).toBe(loadPack('id'));
});
