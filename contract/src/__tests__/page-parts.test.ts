import { islandIdPrefix, PAGE_DATA_ID, sectionOwnsId } from '../page-parts';
import { SECTION_IDS } from '../sections';

test("a section's ids are those under its prefix, with or without React's mark before it", () => {
  expect(islandIdPrefix('contact')).toBe('contact-');
  for (const id of ['contact-title', '_contact-R_0_-name', '«contact-R0»', ':contact-r1:']) expect(sectionOwnsId('contact', id)).toBe(true);
});

test("no section owns the page's ids, another section's, or a name a script could reach as a global", () => {
  const pageIds = [PAGE_DATA_ID, 'root', 'home', 'about', 'contact', 'tab-home', 'privacy'];
  const globals = ['webpackChunkportico_host', 'webpackChunkportico_host_page_script', 'portico_contact', '__FEDERATION__', '__VMOK__'];
  for (const section of SECTION_IDS) {
    for (const id of [...pageIds, ...globals]) expect(sectionOwnsId(section, id)).toBe(false);
    for (const other of SECTION_IDS.filter((one) => one !== section)) expect(sectionOwnsId(section, `_${islandIdPrefix(other)}R_0_`)).toBe(false);
  }
});
