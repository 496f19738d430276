import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SectionId } from '@portico/contract/sections';
import { embeddedTestDatabase, serverTestDatabase, serverTestsRun, type TestDatabase } from '@portico/platform/testing';
import { ReleaseError } from '../release-error';
import { ReleaseStore } from '../release-store';
import type { PublishInput } from '../releases';
import { eventually } from '@portico/testing/eventually';

const KINDS = serverTestsRun() ? (['embedded', 'server'] as const) : (['embedded'] as const);

let builds = 0;
/** A checked build of `section`, as a publish that passed its checks hands it to the store. */
function build(section: SectionId, overrides: Partial<PublishInput> = {}): PublishInput {
  builds++;
  return {
    section,
    manifestUrl: `https://cdn.example/${section}/${builds}/mf-manifest.json`,
    integrity: `sha384-${String(builds).padStart(64, '0')}`,
    version: '1.0.0',
    buildId: `build-${builds}`,
    createdBy: 'ci',
    note: null,
    checks: [{ name: 'manifest', ok: true, detail: 'a federation manifest of the section' }],
    ...overrides,
  };
}

describe.each(KINDS)('the release store on the %s database', (kind) => {
  let database: TestDatabase;
  let store: ReleaseStore;

  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    store = await ReleaseStore.open(await database.open(), { environmentToken: 'the-environment-token' });
  }, 60_000);

  afterAll(async () => {
    await store?.db.close();
    database?.cleanUp();
  });

  beforeEach(async () => {
    await store.db.exec('TRUNCATE releases, release_sections, release_activations, release_tokens, release_audit CASCADE');
  });

  const publish = async (section: SectionId, overrides: Partial<PublishInput> = {}) => (await store.releases.publish(build(section, overrides))).release.id;

  it('stores a release under <section>-<n>, and the same URL with the same bytes again as that release', async () => {
    const input = build('home', { note: 'first' });
    const first = await store.releases.publish(input);
    expect(first.created).toBe(true);
    expect(first.release).toMatchObject({
      section: 'home',
      manifestUrl: input.manifestUrl,
      integrity: input.integrity,
      buildId: input.buildId,
      createdBy: 'ci',
      note: 'first',
      broken: null,
    });
    expect(first.release.id).toMatch(/^home-\d+$/);
    const again = await store.releases.publish({ ...input, createdBy: 'someone else' });
    expect(again).toEqual({ release: first.release, created: false });
    // The same URL with other bytes is another release.
    const changed = await store.releases.publish({ ...input, integrity: 'sha384-other' });
    expect(changed.created).toBe(true);
    expect(changed.release.id).not.toBe(first.release.id);
    expect(await store.releases.get(first.release.id)).toEqual(first.release);
    expect(await store.releases.get('home-999999')).toBeUndefined();
  });

  it('activates, and rolls back one step at a time: twice goes back two releases, never to the one rolled back from', async () => {
    const [one, two, three] = [await publish('contact'), await publish('contact'), await publish('contact')];
    await store.history.activate('contact', one, 'integrator');
    await store.history.activate('contact', two, 'integrator');
    const activated = await store.history.activate('contact', three, 'integrator', 'the new form');
    expect(activated).toMatchObject({ section: 'contact', active: { id: three }, previous: { id: two } });

    const back = await store.history.rollback('contact', undefined, 'integrator');
    expect(back).toMatchObject({ active: { id: two }, previous: { id: one } });
    const twice = await store.history.rollback('contact', undefined, 'integrator');
    expect(twice.active?.id).toBe(one);
    // Below the first release is config.json's URL.
    expect(twice.previous).toBeNull();
    expect((await store.releases.active()).contact?.id).toBe(one);

    const log = await store.audit.list({ sections: ['contact'] });
    expect(log.slice(0, 2).map((entry) => [entry.action, entry.release, entry.from])).toEqual([
      ['rollback', one, two],
      ['rollback', two, three],
    ]);
    expect(log.find((entry) => entry.action === 'activate' && entry.release === three)?.detail).toBe('the new form');
  });

  it("rolls the first release back to config.json's URL, audited; once there, a rollback has nowhere to go (409)", async () => {
    const only = await publish('home');
    await store.history.activate('home', only, 'integrator');
    const watched: SectionId[] = [];
    const watching = await store.watch((section) => watched.push(section), { pollMs: 60_000 });
    try {
      const back = await store.history.rollback('home', undefined, 'integrator', 'the first build breaks checkout');
      // Nothing is active; the answer names the release it replaced, the one to activate to undo this.
      expect(back).toMatchObject({ section: 'home', active: null, previous: { id: only } });
      expect((await store.releases.active()).home).toBeUndefined();
      expect((await store.releases.served()).active.home).toBeUndefined();
      // Every server hears it as it hears an activation.
      await eventually(() => expect(watched).toContain('home'), { what: 'the watch hears it', withinMs: 2_000, everyMs: 10 });
    } finally {
      await watching.close();
    }
    const [entry] = await store.audit.list({ sections: ['home'], limit: 1 });
    expect(entry).toMatchObject({
      actor: 'integrator',
      action: 'rollback',
      section: 'home',
      release: null,
      from: only,
      detail: "the first build breaks checkout; back to config.json's URL: no release is active",
    });
    // The state says so: no release, no rollback target, since when and by whom.
    expect((await store.releases.sectionStates('home')).home).toMatchObject({ active: null, previous: null, since: expect.any(String), by: 'integrator' });
    expect((await store.releases.list({ sections: ['home'] }))[0]).toMatchObject({ id: only, state: 'available' });

    await expect(store.history.rollback('home', undefined, 'integrator')).rejects.toMatchObject({
      kind: 'conflict',
      message: expect.stringContaining('serves the URL in config.json already'),
    });
    // Forward again by name, as an activation.
    expect(await store.history.rollback('home', only, 'integrator')).toMatchObject({ active: { id: only }, previous: null });
  });

  it("goes back two steps with two rollbacks from the second release: to the first, then to config.json's URL", async () => {
    const [one, two] = [await publish('about'), await publish('about')];
    await store.history.activate('about', one, 'integrator');
    await store.history.activate('about', two, 'integrator');
    expect(await store.history.rollback('about', undefined, 'integrator')).toMatchObject({ active: { id: one }, previous: null });
    expect(await store.history.rollback('about', undefined, 'integrator')).toMatchObject({ active: null, previous: { id: one } });
    await expect(store.history.rollback('about', undefined, 'integrator')).rejects.toMatchObject({ kind: 'conflict' });
    expect(await store.releases.active()).toEqual({});
  });

  it('keeps its history in order past ten activations (the stack is ordered by number, not as text)', async () => {
    const [one, two] = [await publish('home'), await publish('home')];
    for (let round = 0; round < 12; round++) {
      const id = round % 2 === 0 ? one : two;
      expect((await store.history.activate('home', id, 'integrator')).active?.id).toBe(id);
      expect((await store.releases.active()).home?.id).toBe(id);
    }
    expect((await store.history.rollback('home', undefined, 'integrator')).active?.id).toBe(one);
  });

  it('rolls back to a named release: down the history to it, or pushed when it was never active', async () => {
    const [one, two, three, never] = [await publish('about'), await publish('about'), await publish('about'), await publish('about')];
    for (const id of [one, two, three]) await store.history.activate('about', id, 'integrator');

    expect(await store.history.rollback('about', one, 'integrator')).toMatchObject({ active: { id: one }, previous: null });
    // `never` goes on top of `one`, as an activation would.
    expect(await store.history.rollback('about', never, 'integrator')).toMatchObject({ active: { id: never }, previous: { id: one } });
    await expect(store.history.rollback('about', never, 'integrator')).rejects.toThrow(`${never} is already the active release of about`);
    // Activating the active release again changes nothing in the history.
    await store.history.activate('about', never, 'integrator');
    expect((await store.history.rollback('about', undefined, 'integrator')).active?.id).toBe(one);
  });

  it("refuses an unknown release (404), another section's (409) and a section with nothing to roll back (409)", async () => {
    const home = await publish('home');
    const expectKind = async (promise: Promise<unknown>, kind: string) => {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ReleaseError);
      expect((error as ReleaseError).kind).toBe(kind);
    };
    await expectKind(store.history.activate('home', 'home-424242', 'integrator'), 'not-found');
    await expectKind(store.history.activate('about', home, 'integrator'), 'conflict');
    await expectKind(store.history.rollback('about', home, 'integrator'), 'conflict');
    await expectKind(store.history.rollback('home', undefined, 'integrator'), 'conflict');
    await expectKind(store.history.activate('nowhere' as SectionId, home, 'integrator'), 'not-found');
    // Nothing changed.
    expect(await store.releases.active()).toEqual({});
  });

  it('lists releases newest first with their state, of the sections asked for', async () => {
    const [one, two, three, broken] = [await publish('home'), await publish('home'), await publish('home'), await publish('home')];
    const about = await publish('about');
    for (const id of [one, two]) await store.history.activate('home', id, 'integrator');
    // The last activation's time, bracketed by the clock readings around it (second precision: the database's clock).
    const activating = Date.now();
    await store.history.activate('home', three, 'integrator');
    const activated = Date.now();
    await store.releases.markBroken(broken, 'remoteEntry.js answers 404');

    const listed = await store.releases.list({ sections: ['home'] });
    expect(listed.map((release) => [release.id, release.state])).toEqual([
      [broken, 'broken'],
      [three, 'active'],
      [two, 'previous'],
      [one, 'available'],
    ]);
    expect(listed[0]!.broken).toMatchObject({ detail: 'remoteEntry.js answers 404' });
    expect(listed[1]).not.toHaveProperty('broken');
    expect((await store.releases.list()).map((release) => release.id)).toContain(about);

    const states = await store.releases.sectionStates();
    expect(states.home).toMatchObject({ active: { id: three }, previous: { id: two }, by: 'integrator' });
    expect(Date.parse(states.home!.since!)).toBeGreaterThanOrEqual(activating - 1000);
    expect(Date.parse(states.home!.since!)).toBeLessThanOrEqual(activated + 1000);
    expect(states.about).toEqual({ active: null, previous: null, since: null, by: null });
  });

  it('audits a broken release once, and its repair', async () => {
    const id = await publish('home');
    expect(await store.releases.markBroken(id, 'a chunk changed')).toBe(true);
    expect(await store.releases.markBroken(id, 'still changed')).toBe(true);
    expect(await store.releases.markBroken('home-0', 'none')).toBe(false);
    expect((await store.releases.get(id))?.broken?.detail).toBe('still changed');
    await store.releases.clearBroken(id);
    expect((await store.releases.get(id))?.broken).toBeNull();
    const log = await store.audit.list();
    expect(log.filter((entry) => entry.action === 'broken').map((entry) => entry.detail)).toEqual(['whole again: no longer broken', 'a chunk changed']);
  });

  it('keeps tokens hashed, knows who holds one, and forgets a revoked one', async () => {
    const created = await store.tokens.create({ name: 'ci-contact', section: 'contact', actor: 'owner' });
    expect(created).toMatchObject({ name: 'ci-contact', section: 'contact', scopes: ['section:contact'] });
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await store.db.query<{ hash: string }>('SELECT hash FROM release_tokens');
    expect(row!.hash).not.toContain(created.token);

    expect(await store.tokens.authenticate(created.token)).toEqual({ name: 'ci-contact', scopes: ['section:contact'] });
    expect(await store.tokens.authenticate('the-environment-token')).toEqual({ name: 'environment', scopes: ['releases', 'messages', 'metrics'] });
    expect(await store.tokens.authenticate(`${created.token}x`)).toBeUndefined();
    expect(await store.tokens.authenticate(undefined)).toBeUndefined();

    await expect(store.tokens.create({ name: 'ci-contact', actor: 'owner' })).rejects.toThrow('exists');
    await expect(store.tokens.create({ name: 'environment', actor: 'owner' })).rejects.toThrow('reserved');
    await expect(store.tokens.create({ name: 'has space', actor: 'owner' })).rejects.toThrow("a token's name");

    expect(await store.tokens.revoke('ci-contact', 'owner')).toBe(true);
    expect(await store.tokens.revoke('ci-contact', 'owner')).toBe(false);
    expect(await store.tokens.authenticate(created.token)).toBeUndefined();
    // The name is free again once its token is revoked.
    const integrator = await store.tokens.create({ name: 'ci-contact', actor: 'owner' });
    expect(await store.tokens.authenticate(integrator.token)).toEqual({ name: 'ci-contact', scopes: ['releases'] });
    expect((await store.audit.list()).filter((entry) => entry.action === 'token').map((entry) => entry.detail)).toEqual([
      'created ci-contact (releases)',
      'revoked ci-contact',
      'created ci-contact (section:contact)',
    ]);
  });

  it("writes a fresh install's owner token once to <data folder>/control-token, 0600, with every scope; never with PORTICO_CONTROL_TOKEN set", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'portico-data-'));
    try {
      expect(await store.ownerToken.ensure(folder)).toBeUndefined();
      const fresh = await ReleaseStore.open(store.db);
      const file = await fresh.ownerToken.ensure(folder);
      expect(file).toBe(path.join(folder, 'control-token'));
      expect(statSync(file!).mode & 0o777).toBe(0o600);
      const token = readFileSync(file!, 'utf8').trim();
      expect(await fresh.tokens.authenticate(token)).toEqual({ name: 'owner', scopes: ['releases', 'messages', 'metrics'] });
      // The next start finds it and writes nothing.
      expect(await fresh.ownerToken.ensure(folder)).toBeUndefined();
      expect(readFileSync(file!, 'utf8').trim()).toBe(token);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('hands out the same preview secret every time, 32 bytes', async () => {
    const secret = await store.previewSecret();
    expect(secret).toHaveLength(32);
    const other = await ReleaseStore.open(store.db);
    expect((await other.previewSecret()).equals(secret)).toBe(true);
  });
});
