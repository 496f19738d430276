import { sectionGrant } from '@portico/shared-config';
import { SECTION_IDS } from '@portico/contract/sections';
import { sampleConfig } from '@portico/testing/sample-config';
import { grantingScript } from '../dev-config';

// `npm run dev` renders the page in the browser only: a section granted no
// script (Home and About by default) would show its alert there.

test('the dev server grants every section script unless the file says otherwise', () => {
  const served = JSON.parse(grantingScript(JSON.stringify(sampleConfig)));
  for (const id of SECTION_IDS) expect(sectionGrant(served, id)).toEqual({ interactive: true });
  expect(served.remotes).toEqual(sampleConfig.remotes);
});

test('a section the file makes static stays static', () => {
  const served = JSON.parse(grantingScript(JSON.stringify({ ...sampleConfig, sections: { about: { interactive: false } } })));
  expect(sectionGrant(served, 'about')).toEqual({ interactive: false });
  expect(sectionGrant(served, 'home')).toEqual({ interactive: true });
});
