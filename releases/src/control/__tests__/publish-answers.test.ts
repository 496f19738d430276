import type { PublishChecks } from '../../release';
import { controlApiForFile } from './control-api-on-test-store';

// What a section team reads after a publish (issue 49): a republish of the
// same URL and bytes says it is the same release (it said "Published" and
// dropped the note), and a refusal's audit entry lists only the checks that
// ran and failed (it listed those never run as failed). Each checked to
// fail before its change.

const OWNER = 'the-integrator-token';
const checks: PublishChecks = ({ manifestUrl }) =>
  Promise.resolve(
    manifestUrl.includes('missing')
      ? {
          ok: false,
          checks: [
            { name: 'reachable', ok: false, detail: 'answered 404' },
            { name: 'manifest', ok: false, detail: 'not run: the manifest was not fetched' },
            { name: 'exposes', ok: false, detail: 'not run' },
          ],
        }
      : { ok: true, checks: [], manifest: { integrity: 'sha384-same-bytes', version: '1.0.0', buildId: 'b1' } },
  );

const control = controlApiForFile('publish-answers', { owner: OWNER, publishChecks: checks });

const publish = (manifestUrl: string, note?: string) =>
  control.call('POST', '/api/releases', OWNER, { section: 'about', manifestUrl, ...(note ? { note } : {}) });

test('the same URL and bytes again: 200, the same release said to be republished, its note kept and the new one audited', async () => {
  const url = 'https://cdn.example/about/1/mf-manifest.json';
  const first = await publish(url, 'first words');
  expect(first.status).toBe(201);
  expect(first.body).not.toHaveProperty('republished');
  const again = await publish(url, 'second words');
  expect(again).toMatchObject({ status: 200, body: { id: first.body.id, note: 'first words', republished: true } });
  const [entry] = await control.store.audit.list({ sections: ['about'], limit: 1 });
  expect(entry).toMatchObject({
    action: 'publish',
    release: first.body.id,
    detail: 'published again: the same URL with the same bytes, the same release; the note "second words" (the release keeps "first words")',
  });
  // Issue 49: the facts say it is the same release, for a console to word in its reader's language.
  expect(entry).toMatchObject({ facts: { kind: 'republish', givenNote: 'second words', releaseNote: 'first words' } });
  const cli = await control.release('publish', 'about', url, '--note', 'third words');
  expect(cli).toMatchObject({
    code: 0,
    out: `${first.body.id as string} is already published from that URL with those bytes (build b1): the same release, with its note "first words"; a note given now is in the audit log\n`,
  });
});

test('a refusal’s audit entry names the check that failed and counts those that did not run', async () => {
  const refused = await publish('https://cdn.example/about/missing/mf-manifest.json');
  expect(refused.status).toBe(422);
  const [entry] = await control.store.audit.list({ sections: ['about'], limit: 1 });
  expect(entry).toMatchObject({
    action: 'publish-refused',
    detail: 'https://cdn.example/about/missing/mf-manifest.json: reachable: answered 404; 2 not run',
  });
  // Issue 49: the checks' ids and reasons as facts; the console words the sentence around them.
  expect(entry).toMatchObject({
    facts: {
      kind: 'publish-refused',
      manifestUrl: 'https://cdn.example/about/missing/mf-manifest.json',
      failed: [{ check: 'reachable', reason: 'answered 404' }],
      notRun: 2,
    },
  });
});
