import { EXPOSED_SECTION, remoteNameOf, SECTION_IDS } from '../section-contract';

test('the three sections, in tab order', () => {
  expect(SECTION_IDS).toEqual(['home', 'about', 'contact']);
});

test('each remote has its own federation name and exposes the same key', () => {
  expect(SECTION_IDS.map(remoteNameOf)).toEqual(['portico_home', 'portico_about', 'portico_contact']);
  expect(EXPOSED_SECTION).toBe('./section');
});
