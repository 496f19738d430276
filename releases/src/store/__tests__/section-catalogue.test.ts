import { BUILT_IN_SECTIONS } from '@portico/contract/section-entries';
import type { SectionId } from '@portico/contract/sections';
import type { Database } from '@portico/platform/database';
import { embeddedTestDatabase, type TestDatabase } from '@portico/platform/testing';
import { eventually } from '@portico/testing/eventually';
import { ReleaseError } from '../release-error';
import { ReleaseStore } from '../release-store';
import type { SectionInput } from '../section-catalogue';
import { losingConnectionAt } from './losing-connection';
import { TWO_STORE_KINDS, twoStoresOn } from './two-stores';

// Sections as data (issue 48): the catalogue in the releases' database.
// Each test tries to break the rule it names: two adds of one id, a
// database lost in the middle of an add, a retired id used again, a token
// or a release slipping in for a retired section.

const faq = (id = 'faq-page', more: Partial<SectionInput> = {}): SectionInput => ({
  id,
  labels: { en: 'FAQ', id: 'Tanya Jawab' },
  origins: ['https://cdn.example'],
  ...more,
});

let builds = 0;
const publish = (store: ReleaseStore, section: string) =>
  store.releases.publish({
    section: section as SectionId,
    manifestUrl: `https://cdn.example/${section}/${++builds}/mf-manifest.json`,
    integrity: `sha384-${builds}`,
    version: '1.0.0',
    buildId: `build-${builds}`,
    createdBy: 'ci',
    checks: [],
  });

/** The served state's sections: the store's served() always sets them. */
const servedSections = async (store: ReleaseStore) => (await store.releases.served()).sections ?? [];

const refusal = async (work: Promise<unknown>): Promise<{ kind: string; field?: string; message: string }> => {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ReleaseError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { kind: error.kind, field: error.field, message: error.message };
};

/**
 * `db` as a fresh install leaves it: every table emptied but the migrations'
 * records, each numbering from 1 again (a fresh install holds no other row).
 */
async function asFreshlyInstalled(db: Database): Promise<void> {
  const tables = await db.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT LIKE 'portico\\_%\\_migrations'",
  );
  await db.exec(`TRUNCATE ${tables.map(({ name }) => `"${name}"`).join(', ')} RESTART IDENTITY CASCADE`);
}

describe('the section catalogue on a fresh embedded database', () => {
  // One database for these tests, emptied before each to what a fresh install holds, and a store opened anew on it:
  // a copy of the 39 MB template per test cost the file some 1 CPU-s a test. The test that rewinds the schema
  // itself makes a database of its own.
  let database: TestDatabase;
  let db: Database;
  let store: ReleaseStore;

  beforeAll(async () => {
    database = embeddedTestDatabase();
    db = await database.open();
    // Its tables made, for the first test to empty.
    await ReleaseStore.open(db);
  }, 60_000);

  beforeEach(async () => {
    await asFreshlyInstalled(db);
    store = await ReleaseStore.open(db);
  });

  afterAll(async () => {
    await db?.close();
    database?.cleanUp();
  });

  test('a fresh install serves exactly the three built-in sections, in their order, with their grants', async () => {
    const served = await store.releases.served();
    expect(served.sections).toEqual(BUILT_IN_SECTIONS);
    expect(served.grants).toEqual({});
    expect((await store.sections.list()).map((entry) => [entry.id, entry.order])).toEqual(BUILT_IN_SECTIONS.map((entry, index) => [entry.id, index]));
  });

  test('an added section is served in its place with its grant, audited, and wakes the watch', async () => {
    const heard: string[] = [];
    // A poll too slow to be what delivers it: the notification must.
    const watching = await store.watch((section) => heard.push(section), { pollMs: 60_000 });
    try {
      const added = await store.sections.add(faq('faq-page', { after: 'home', interactive: true, markets: ['ID'] }), 'integrator');
      expect(added).toMatchObject({
        id: 'faq-page',
        order: 1,
        builtIn: false,
        hidden: false,
        interactive: true,
        markets: ['ID'],
        origins: ['https://cdn.example'],
      });
      await eventually(() => heard.includes('faq-page'), { what: 'the catalogue change heard', withinMs: 2_000 });
    } finally {
      await watching.close();
    }
    const served = await store.releases.served();
    expect(served.sections?.map((entry) => entry.id)).toEqual(['home', 'faq-page', 'about', 'contact']);
    expect(served.grants).toEqual({ 'faq-page': { interactive: true } });
    const [entry] = await store.audit.list({ sections: ['faq-page' as SectionId] });
    expect(entry).toMatchObject({ actor: 'integrator', action: 'section-add', section: 'faq-page' });
    // What a console in another language words the entry from (issue 49).
    expect(entry?.facts).toMatchObject({ kind: 'section-add', interactive: true, markets: ['ID'], origins: ['https://cdn.example'] });
  });

  test('a database from before sections as data keeps its rows and grants, and serves the built-in list', async () => {
    // A database of its own: the schema rewound would outlive the test in the shared one.
    const own = embeddedTestDatabase();
    const db = await own.open();
    try {
      await ReleaseStore.open(db);
      // The schema as step 2 left it: step 3's, step 4's (the release policy) and step 5's (the audit's facts) and step 6's (the request id) columns and records taken back, a grant set then.
      await db.exec(`ALTER TABLE release_sections DROP COLUMN label_en, DROP COLUMN label_id, DROP COLUMN origins, DROP COLUMN markets,
        DROP COLUMN hidden, DROP COLUMN added_at, DROP COLUMN added_by, DROP COLUMN retired_at, DROP COLUMN retired_by, DROP COLUMN policy;
        ALTER TABLE release_audit DROP COLUMN facts, DROP COLUMN note, DROP COLUMN request_id;
        DELETE FROM portico_release_migrations WHERE version >= 3;
        INSERT INTO release_sections (section, generation, interactive) VALUES ('home', 7, true);`);
      const migrated = await ReleaseStore.open(db);
      const served = await migrated.releases.served();
      expect(served.grants).toEqual({ home: { interactive: true } });
      expect(served.sections).toEqual(BUILT_IN_SECTIONS.map((entry) => (entry.id === 'home' ? { ...entry, interactive: true } : entry)));
      const [row] = await db.query<{ generation: string }>("SELECT generation::text AS generation FROM release_sections WHERE section = 'home'");
      expect(row?.generation).toBe('7');
    } finally {
      await db.close();
      own.cleanUp();
    }
  });

  test('a bad id, a reserved word, a built-in id, a missing label, a bad origin or market: refused naming the field, nothing stored', async () => {
    expect(await refusal(store.sections.add(faq('Faq'), 'i'))).toMatchObject({ kind: 'invalid', field: 'id' });
    expect(await refusal(store.sections.add(faq('console'), 'i'))).toMatchObject({
      kind: 'invalid',
      field: 'id',
      message: expect.stringContaining('reserved'),
    });
    expect(await refusal(store.sections.add(faq('tab-home'), 'i'))).toMatchObject({ kind: 'invalid', field: 'id' });
    expect(await refusal(store.sections.add(faq('about'), 'i'))).toMatchObject({ kind: 'conflict', field: 'id' });
    expect(await refusal(store.sections.add({ ...faq(), labels: { en: 'FAQ' } }, 'i'))).toMatchObject({ kind: 'invalid', field: 'labels.id' });
    expect(await refusal(store.sections.add({ ...faq(), labels: { en: '<b>FAQ</b>', id: 'x' } }, 'i'))).toMatchObject({ field: 'labels.en' });
    expect(await refusal(store.sections.add({ ...faq(), origins: ['https://cdn.example/path'] }, 'i'))).toMatchObject({ field: 'origins.0' });
    expect(await refusal(store.sections.add({ ...faq(), origins: ['javascript:alert(1)'] }, 'i'))).toMatchObject({ field: 'origins.0' });
    expect(await refusal(store.sections.add({ ...faq(), markets: ['US'] }, 'i'))).toMatchObject({ field: 'markets' });
    expect(await refusal(store.sections.add({ ...faq(), after: 'nowhere' }, 'i'))).toMatchObject({ field: 'after' });
    expect((await store.sections.list()).map((entry) => entry.id)).toEqual(['home', 'about', 'contact']);
    expect(await store.audit.list()).toEqual([]);
  });

  test('moved first with after null, hidden and shown again, relabelled: each undone by its opposite, each audited', async () => {
    await store.sections.add(faq(), 'i');
    await store.sections.change('faq-page', { after: null }, 'i');
    expect((await servedSections(store)).map((entry) => entry.id)).toEqual(['faq-page', 'home', 'about', 'contact']);
    await store.sections.change('faq-page', { after: 'contact' }, 'i');
    await store.sections.change('home', { hidden: true, labels: { en: 'Start' } }, 'i');
    const hidden = await servedSections(store);
    expect(hidden.map((entry) => entry.id)).toEqual(['home', 'about', 'contact', 'faq-page']);
    expect(hidden[0]).toMatchObject({ hidden: true, labels: { en: 'Start', id: 'Beranda' }, builtIn: true });
    await store.sections.change('home', { hidden: false, labels: { en: 'Home' } }, 'i');
    expect((await servedSections(store)).slice(0, 3)).toEqual(BUILT_IN_SECTIONS);
    expect((await store.audit.list()).filter((entry) => entry.action === 'section-change')).toHaveLength(4);
    // Issue 49: each change as facts, newest first, for a console to word in its reader's language (checked: fails without them).
    expect((await store.audit.list()).filter((entry) => entry.action === 'section-change').map((entry) => entry.facts)).toEqual([
      {
        kind: 'section-change',
        changes: [
          { field: 'label', language: 'en', from: 'Start', to: 'Home' },
          { field: 'hidden', hidden: false },
        ],
      },
      {
        kind: 'section-change',
        changes: [
          { field: 'label', language: 'en', from: 'Home', to: 'Start' },
          { field: 'hidden', hidden: true },
        ],
      },
      { kind: 'section-change', changes: [{ field: 'order', after: 'contact' }] },
      { kind: 'section-change', changes: [{ field: 'order', after: null }] },
    ]);
  });

  test('the nav holds 8: a ninth shown section is refused, whether added or shown again', async () => {
    for (const id of ['s-four', 's-five', 's-six', 's-seven', 's-eight']) await store.sections.add(faq(id), 'i');
    expect(await refusal(store.sections.add(faq('s-nine'), 'i'))).toMatchObject({ kind: 'conflict' });
    await store.sections.change('s-eight', { hidden: true }, 'i');
    await store.sections.add(faq('s-nine'), 'i');
    expect(await refusal(store.sections.change('s-eight', { hidden: false }, 'i'))).toMatchObject({ kind: 'conflict' });
  });

  test('hiding a section while its canary runs: 409, nothing changed', async () => {
    await store.sections.add(faq(), 'i');
    const first = await publish(store, 'faq-page');
    const second = await publish(store, 'faq-page');
    await store.history.activate('faq-page', first.release.id, 'i');
    await store.canaries.start('faq-page', second.release.id, { percent: 10 }, 'i');
    expect(await refusal(store.sections.change('faq-page', { hidden: true }, 'i'))).toMatchObject({ kind: 'conflict', field: 'hidden' });
    expect((await store.sections.get('faq-page'))?.hidden).toBe(false);
  });

  test('retire: its canary ends, its tokens are revoked, it leaves the served state; its releases and audit stay; its id is never used again', async () => {
    await store.sections.add(faq(), 'i');
    const token = await store.tokens.create({ name: 'ci-faq', section: 'faq-page' as SectionId, actor: 'i' });
    const both = await store.tokens.create({ name: 'faq-and-messages', scopes: ['section:faq-page' as never, 'messages'], actor: 'i' });
    const homeToken = await store.tokens.create({ name: 'ci-home', section: 'home', actor: 'i' });
    const first = await publish(store, 'faq-page');
    const second = await publish(store, 'faq-page');
    await store.history.activate('faq-page', first.release.id, 'i');
    await store.canaries.start('faq-page', second.release.id, { percent: 10 }, 'i');

    const retired = await store.sections.retire('faq-page', 'i');
    expect(retired).toMatchObject({ id: 'faq-page', order: null, retired: { by: 'i' } });
    expect(await store.tokens.authenticate(token.token)).toBeUndefined();
    expect(await store.tokens.authenticate(both.token)).toBeUndefined();
    expect(await store.tokens.authenticate(homeToken.token)).toMatchObject({ name: 'ci-home' });
    const served = await store.releases.served();
    expect(served.sections?.map((entry) => entry.id)).toEqual(['home', 'about', 'contact']);
    expect(served.active).toEqual({});
    expect(served.canaries).toEqual({});
    expect(await store.canaries.running()).toEqual({});
    // History and audit stay.
    expect((await store.releases.list({ sections: ['faq-page'] })).map((release) => release.id)).toEqual([second.release.id, first.release.id]);
    expect((await store.audit.list({ sections: ['faq-page' as SectionId] })).map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['section-retire', 'token', 'canary', 'activate', 'section-add']),
    );

    // Final: no add, change, release, activation, token or second retirement.
    expect(await refusal(store.sections.add(faq(), 'i'))).toMatchObject({ kind: 'conflict', message: expect.stringContaining('retired') });
    expect(await refusal(store.sections.change('faq-page', { hidden: true }, 'i'))).toMatchObject({ kind: 'conflict' });
    expect(await refusal(publish(store, 'faq-page'))).toMatchObject({ kind: 'conflict' });
    expect(await refusal(store.history.activate('faq-page', first.release.id, 'i'))).toMatchObject({ kind: 'conflict' });
    expect(await refusal(store.tokens.create({ name: 'ci-faq-2', section: 'faq-page' as SectionId, actor: 'i' }))).toMatchObject({ kind: 'conflict' });
    expect(await refusal(store.sections.retire('faq-page', 'i'))).toMatchObject({ kind: 'conflict' });
  });

  test('a built-in section is never retired (409), and an unknown one is 404 everywhere', async () => {
    expect(await refusal(store.sections.retire('contact', 'i'))).toMatchObject({ kind: 'conflict' });
    expect(await refusal(store.sections.change('nowhere', { hidden: true }, 'i'))).toMatchObject({ kind: 'not-found' });
    expect(await refusal(publish(store, 'nowhere'))).toMatchObject({ kind: 'not-found' });
    expect(await refusal(store.tokens.create({ name: 'ci-x', section: 'nowhere' as SectionId, actor: 'i' }))).toMatchObject({ kind: 'not-found' });
  });

  test('the database lost in the middle of an add: nothing half-made (no row, no order, no audit)', async () => {
    // The add's transaction loses its connection at its audit entry, after its row and its order were written.
    const broken = await ReleaseStore.open(losingConnectionAt(store.db, 'INSERT INTO release_audit'));
    await expect(broken.sections.add(faq(), 'i')).rejects.toThrow('Connection terminated');
    expect((await store.sections.list({ retired: true })).map((entry) => entry.id)).toEqual(['home', 'about', 'contact']);
    expect(await servedSections(store)).toEqual(BUILT_IN_SECTIONS);
    // The id is free: the add made nothing.
    await store.sections.add(faq(), 'i');
  });
});

describe.each(TWO_STORE_KINDS)('two stores, as two servers have them, on one %s database', (kind) => {
  const stores = twoStoresOn(kind);

  test('two integrators adding one id at once: one is added, the other refused (409); two different ids at once both get a place of their own', async () => {
    const outcomes = await Promise.allSettled([stores.first.sections.add(faq('same-id'), 'alice'), stores.second.sections.add(faq('same-id'), 'bob')]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const [refused] = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict' });
    expect((await stores.first.audit.list()).filter((entry) => entry.action === 'section-add')).toHaveLength(1);

    await Promise.all([stores.first.sections.add(faq('one-more'), 'alice'), stores.second.sections.add(faq('and-another'), 'bob')]);
    const ids = (await servedSections(stores.second)).map((entry) => entry.id);
    expect(ids.slice(0, 4)).toEqual(['home', 'about', 'contact', 'same-id']);
    expect(ids.slice(4).sort()).toEqual(['and-another', 'one-more']);
  });

  test("a change on one is heard by the other's watch within 2 s, and read there", async () => {
    const heard: string[] = [];
    // A poll too slow to be what delivers it: the notification must.
    const watching = await stores.second.watch((section) => heard.push(section), { pollMs: 60_000 });
    try {
      await stores.first.sections.change('same-id', { labels: { en: 'Renamed' }, after: null }, 'alice');
      await eventually(() => heard.includes('same-id'), { what: 'the change heard by the other store', withinMs: 2_000 });
    } finally {
      await watching.close();
    }
    expect((await servedSections(stores.second))[0]).toMatchObject({ id: 'same-id', labels: { en: 'Renamed', id: 'Tanya Jawab' } });
  });
});
