import { BUILT_IN_SECTIONS } from '@portico/contract/section-entries';
import { silentLogger } from '@portico/platform/logging';
import { linesLogger } from '@portico/platform/testing';
import { parseConfig, sectionGrant, sectionsFromConfig } from '@portico/shared-config/config';
import { CONFIG_BASELINE, type ActiveReleases, type Release } from '@portico/releases';
import { canaryOf } from '../beacon/visit-issuer';
import { cohortVariants, releaseIds, releasesFor, ServedReleases, withReleases, type ReleaseFeed } from '../served-releases';

const FILE = {
  comName: 'Lender',
  remotes: {
    home: 'http://localhost:8081/mf-manifest.json',
    about: 'http://localhost:8082/mf-manifest.json',
    contact: 'http://localhost:8083/mf-manifest.json',
  },
  remoteIntegrity: { about: 'sha384-fromTheFile' },
};
const answerOf = (value: unknown) => ({ status: 200, body: JSON.stringify(value), value });

function release(id: string, section: Release['section'], url: string): Release {
  return {
    id,
    section,
    manifestUrl: url,
    integrity: `sha384-${id}`,
    version: '1.0.0',
    buildId: `build-${id}`,
    createdAt: '2026-11-25T10:00:00.000Z',
    createdBy: 'ci',
    note: null,
  };
}

describe('config.json with releases', () => {
  it("takes a section's remote and pin from its active release and leaves the others as the file has them", () => {
    const contact = release('contact-7', 'contact', 'https://contact.example/v7/mf-manifest.json');
    const served = withReleases(answerOf(FILE), { contact });
    expect(served.value).toEqual({
      ...FILE,
      remotes: { ...FILE.remotes, contact: contact.manifestUrl },
      remoteIntegrity: { about: 'sha384-fromTheFile', contact: 'sha384-contact-7' },
    });
    expect(JSON.parse(served.body)).toEqual(served.value);
  });

  it('drops a preview an operator wrote into the file: only the server says a visit is a preview', () => {
    const served = withReleases(answerOf({ ...FILE, preview: { section: 'home', release: 'home-1' }, previewRefused: 'expired' }), {});
    expect(served.value).toEqual(FILE);
  });

  it('shows a preview visit the previewed release over the active one, and says so in the config', () => {
    const active = release('contact-7', 'contact', 'https://contact.example/v7/mf-manifest.json');
    const previewed = release('contact-9', 'contact', 'https://contact.example/v9/mf-manifest.json');
    const expiresAt = new Date('2026-11-26T10:00:00.000Z');
    const { value } = withReleases(answerOf(FILE), { contact: active }, { release: previewed, expiresAt });
    expect(value).toMatchObject({
      remotes: { contact: previewed.manifestUrl },
      remoteIntegrity: { contact: 'sha384-contact-9' },
      preview: { section: 'contact', release: 'contact-9', buildId: 'build-contact-9', version: '1.0.0', expiresAt: '2026-11-26T10:00:00.000Z' },
    });
  });

  it('tells a visit whose link opened nothing why, with the live releases', () => {
    const { value } = withReleases(answerOf(FILE), {}, { refused: 'expired' });
    expect(value).toEqual({ ...FILE, previewRefused: 'expired' });
  });

  it("writes the integrator's grants in the store over the file's, whatever release is active (one published before the rule included)", () => {
    const hostile = release('home-1', 'home', 'https://h.example/m.json');
    const file = { ...FILE, sections: { home: { interactive: true }, about: { interactive: true } } };
    const { value } = withReleases(answerOf(file), { home: hostile }, undefined, undefined, { grants: { home: { interactive: false } } });
    expect(value).toMatchObject({ remotes: { home: hostile.manifestUrl }, sections: { home: { interactive: false }, about: { interactive: true } } });
    // No grant in the store: the file's as written (parseConfig gives a section it does not name its built-in grant).
    expect(withReleases(answerOf(FILE), {}, undefined, undefined, {}).value).toEqual(FILE);
  });

  it("writes the store's sections over the file's, in the store's order, and keeps what only the file lists", () => {
    const faq = { ...BUILT_IN_SECTIONS[0]!, id: 'faq', labels: { en: 'FAQ', id: 'Tanya Jawab' }, builtIn: false, markets: ['ID' as const] };
    const [home, about, contact] = BUILT_IN_SECTIONS;
    const file = {
      ...FILE,
      sections: {
        about: { interactive: true },
        notice: { labels: { en: 'Notice', id: 'Pemberitahuan' }, after: null },
        faq: { labels: { en: 'Old', id: 'Lama' } },
      },
    };
    const stored = [faq, home!, { ...about!, hidden: true }, contact!];
    const { value } = withReleases(answerOf(file), {}, undefined, undefined, { sections: stored, grants: { contact: { interactive: false } } });
    const { config } = parseConfig(value);
    expect(sectionsFromConfig(config).map(({ id, hidden }) => `${id}${hidden ? ' (hidden)' : ''}`)).toEqual([
      'notice',
      'faq',
      'home',
      'about (hidden)',
      'contact',
    ]);
    expect(sectionsFromConfig(config).find(({ id }) => id === 'faq')).toMatchObject({ labels: { en: 'FAQ' }, markets: ['ID'] });
    // The store's grant wins over its own entry's and the file's.
    expect(sectionGrant(config, 'contact')).toEqual({ interactive: false });
    expect(sectionGrant(config, 'about')).toEqual({ interactive: false });
  });

  it("writes nothing for the store's default list: a fresh install's config.json is the file as written", () => {
    expect(withReleases(answerOf(FILE), {}, undefined, undefined, { sections: BUILT_IN_SECTIONS }).value).toEqual(FILE);
    const moved = [BUILT_IN_SECTIONS[1]!, BUILT_IN_SECTIONS[0]!, BUILT_IN_SECTIONS[2]!];
    const { config } = parseConfig(withReleases(answerOf(FILE), {}, undefined, undefined, { sections: moved }).value);
    expect(sectionsFromConfig(config).map(({ id }) => id)).toEqual(['about', 'home', 'contact']);
  });

  it('knows the default list whatever order its fields come in (a store or driver may build the entries in another)', () => {
    // The same entries, each written with its fields in reverse order (and its labels too): still the default list, so nothing is written.
    const reordered = BUILT_IN_SECTIONS.map((entry) => {
      const reversed = Object.fromEntries(Object.entries(entry).reverse()) as typeof entry;
      return { ...reversed, labels: { id: entry.labels.id, en: entry.labels.en } };
    });
    expect(Object.keys(reordered[0]!)).not.toEqual(Object.keys(BUILT_IN_SECTIONS[0]!));
    expect(withReleases(answerOf(FILE), {}, undefined, undefined, { sections: reordered }).value).toEqual(FILE);
    // A field that differs is still seen: a hidden Home is written.
    const hidden = withReleases(answerOf(FILE), {}, undefined, undefined, { sections: reordered.map((entry) => ({ ...entry, hidden: entry.id === 'home' })) });
    expect((hidden.value as { sections?: Record<string, { hidden: boolean }> }).sections?.home?.hidden).toBe(true);
  });

  it('leaves a remotes field that is not an object as written, for parseConfig to name', () => {
    const broken = { ...FILE, remotes: 'http://x' };
    expect(withReleases(answerOf(broken), { home: release('home-1', 'home', 'https://h.example/m.json') }).value).toEqual(broken);
  });

  it('passes a config.json that cannot be served through untouched', () => {
    const unavailable = { status: 503, body: '{"error":"config.json is unavailable"}', fault: 'no such file' };
    expect(withReleases(unavailable, { home: release('home-1', 'home', 'https://h.example/m.json') })).toBe(unavailable);
  });
});

describe('the releases a server serves', () => {
  function fakeFeed() {
    let active: ActiveReleases = {};
    let down = false;
    let reads = 0;
    let onChange: (() => void) | undefined;
    let onRead: ((problem: Error | undefined) => void) | undefined;
    const feed: ReleaseFeed = {
      read: () => {
        reads++;
        return down ? Promise.reject(new Error('connection refused')) : Promise.resolve({ active, canaries: {} });
      },
      watch: (listener, readListener) => {
        onChange = listener;
        onRead = readListener;
        return Promise.resolve({ close: () => Promise.resolve() });
      },
      openPreview: () => Promise.resolve({ refused: 'invalid' }),
    };
    return {
      feed,
      set: (next: ActiveReleases) => (active = next),
      setDown: (value: boolean) => (down = value),
      notify: () => onChange?.(),
      /** What the watch's own poll of the store found, as it tells it. */
      polled: () => onRead?.(down ? new Error('connection refused') : undefined),
      reads: () => reads,
    };
  }

  it('reads the store whole only when its watch says so: the watch has the one catch-up poll', async () => {
    // Failed before the poll was one: ServedReleases read the store every 5 s of its own, 13 reads in this minute.
    jest.useFakeTimers();
    try {
      const store = fakeFeed();
      const served = new ServedReleases({ feed: store.feed, warm: () => Promise.resolve(), log: silentLogger });
      await served.start();
      await jest.advanceTimersByTimeAsync(60_000);
      expect(store.reads()).toBe(1);

      store.set({ contact: release('contact-3', 'contact', 'https://c.example/3/mf-manifest.json') });
      store.notify();
      await jest.advanceTimersByTimeAsync(60_000);
      expect(store.reads()).toBe(2);
      expect(served.current().active.contact?.id).toBe('contact-3');
      await served.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it("logs an outage its watch's poll finds once, and reads the store again when the poll finds it answering", async () => {
    const store = fakeFeed();
    const log: string[] = [];
    const served = new ServedReleases({ feed: store.feed, warm: () => Promise.resolve(), log: linesLogger((line) => log.push(line)) });
    store.set({ contact: release('contact-1', 'contact', 'https://c.example/1/mf-manifest.json') });
    await served.start();

    store.setDown(true);
    store.polled();
    store.polled();
    expect(log.filter((line) => line.includes('database'))).toEqual([
      'releases: the database cannot be read (connection refused); serving the last active releases known (contact-1)',
    ]);

    // Activated while the database was away, its notification lost: the first poll that reaches the database brings it.
    store.set({ contact: release('contact-2', 'contact', 'https://c.example/2/mf-manifest.json') });
    store.setDown(false);
    store.polled();
    await served.refresh();
    expect(served.current().active.contact?.id).toBe('contact-2');
    expect(log).toContain('releases: the database answers again');
    await served.close();
  });

  it('warms a new release before serving it, and keeps the last one known while the database is away', async () => {
    const store = fakeFeed();
    const log: string[] = [];
    const servedDuringWarm: (string | undefined)[] = [];
    const served: ServedReleases = new ServedReleases({
      feed: store.feed,
      warm: () => {
        servedDuringWarm.push(served.current().active.contact?.id);
        return Promise.resolve();
      },
      log: linesLogger((line) => log.push(line)),
    });
    const first = release('contact-1', 'contact', 'https://c.example/1/mf-manifest.json');
    store.set({ contact: first });
    await served.start();
    expect(served.current().active.contact?.id).toBe('contact-1');

    store.set({ contact: release('contact-2', 'contact', 'https://c.example/2/mf-manifest.json') });
    store.notify();
    await served.refresh();
    expect(servedDuringWarm).toEqual(['contact-1']);
    expect(served.current().active.contact?.id).toBe('contact-2');

    store.setDown(true);
    await served.refresh();
    await served.refresh();
    expect(served.current().active.contact?.id).toBe('contact-2');
    expect(log.filter((line) => line.includes('cannot be read'))).toEqual([
      'releases: the database cannot be read (connection refused); serving the last active releases known (contact-2)',
    ]);
    await served.close();
  });
});

describe('cohorts while a canary runs', () => {
  const active = { contact: release('contact-7', 'contact', 'https://c.example/7/m.json'), home: release('home-2', 'home', 'https://h.example/2/m.json') };
  const candidate = release('contact-9', 'contact', 'https://c.example/9/m.json');
  const homeCandidate = release('home-3', 'home', 'https://h.example/3/m.json');

  it('serves the candidate to the buckets below its share, the active release to the rest and to a visit with no bucket', () => {
    const state = { active, canaries: { contact: { release: candidate, percent: 10, id: 1, startedAt: '2026-11-25T10:00:00.000Z' } } };
    expect(releasesFor(state, 0).contact?.id).toBe('contact-9');
    expect(releasesFor(state, 9).contact?.id).toBe('contact-9');
    expect(releasesFor(state, 10).contact?.id).toBe('contact-7');
    expect(releasesFor(state, 99).contact?.id).toBe('contact-7');
    expect(releasesFor(state, undefined).contact?.id).toBe('contact-7');
    expect(releasesFor(state, 3).home?.id).toBe('home-2');
  });

  it('names each distinct set of releases the cohorts get, for the servers to warm and render', () => {
    const ids = (sets: ActiveReleases[]) => sets.map((set) => `${set.home?.id} ${set.contact?.id}`).sort();
    expect(ids(cohortVariants({ active, canaries: {} }))).toEqual(['home-2 contact-7']);
    const startedAt = '2026-11-25T10:00:00.000Z';
    const two = {
      active,
      canaries: { contact: { release: candidate, percent: 10, id: 1, startedAt }, home: { release: homeCandidate, percent: 50, id: 2, startedAt } },
    };
    // Buckets 0-9: both candidates; 10-49: Home's only; 50-99: neither.
    expect(ids(cohortVariants(two))).toEqual(['home-2 contact-7', 'home-3 contact-7', 'home-3 contact-9']);
    // The first is what a visitor outside every canary gets: the servers' own render workers run its builds.
    expect(ids(cohortVariants(two).slice(0, 1))).toEqual(['home-2 contact-7']);
  });

  it("reports a first release's canary against config.json's URL: outside its cohort the page names CONFIG_BASELINE, and the beacon counts it for that canary", () => {
    // Checked to fail before: outside the cohort the page named no release for Home, so the judge had no baseline visits.
    const first = { release: homeCandidate, percent: 10, id: 4, startedAt: '2026-11-25T10:00:00.000Z' };
    const state = { active: { contact: active.contact }, canaries: { home: first } };
    expect(releaseIds(releasesFor(state, 50), state.canaries)).toEqual({ contact: 'contact-7', home: CONFIG_BASELINE });
    expect(releaseIds(releasesFor(state, 5), state.canaries)).toEqual({ contact: 'contact-7', home: 'home-3' });
    expect(releaseIds(releasesFor({ active, canaries: {} }, 50))).toEqual({ contact: 'contact-7', home: 'home-2' });
    expect(canaryOf(state, 'home', 4, CONFIG_BASELINE)).toBe(first);
    expect(canaryOf(state, 'home', 4, 'home-3')).toBe(first);
    // With an active release, config.json's URL is no side of the canary.
    expect(canaryOf({ active, canaries: { home: first } }, 'home', 4, CONFIG_BASELINE)).toBeUndefined();
  });
});
