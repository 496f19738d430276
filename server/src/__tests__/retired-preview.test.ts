import { signPreview } from '@portico/releases';
import { releaseFeed } from '../control-plane';
import { releaseStorePerFile } from './release-store-per-file';

// Retiring a section stops its preview links on every server (issue 48):
// a link signed before, still within its expiry, opens nothing once its
// section is retired. Checked failing without the feed's catalogue look-up
// (the link kept showing the retired section's release).

const held = releaseStorePerFile();

test("a retired section's preview link, signed before and not expired, is refused (it opened before)", async () => {
  const { store } = held;
  await store.sections.add({ id: 'old-notice', labels: { en: 'Notice', id: 'Pemberitahuan' }, origins: ['https://cdn.example'] }, 'integrator');
  const { release } = await store.releases.publish({
    section: 'old-notice',
    manifestUrl: 'https://cdn.example/old-notice/1/mf-manifest.json',
    integrity: 'sha384-1',
    version: '1.0.0',
    buildId: 'b1',
    createdBy: 'ci',
    checks: [],
  });
  const feed = releaseFeed(Promise.resolve(store), { health: false });
  const link = signPreview(await store.previewSecret(), { release: release.id, expiresAt: new Date(Date.now() + 3_600_000) });
  expect(await feed.openPreview(link)).toMatchObject({ release: { id: release.id } });

  await store.sections.retire('old-notice', 'integrator');
  expect(await feed.openPreview(link)).toEqual({ refused: 'invalid' });
});
