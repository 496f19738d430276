import type { SectionId } from '@portico/contract/sections';
import { captureLog, embeddedTestDatabase, serverTestDatabase, serverTestsRun, type CapturedLog, type TestDatabase } from '@portico/platform/testing';
import { CONFIG_BASELINE, type ReleaseHealth } from '../../release';
import { health } from '../../canary/__tests__/release-health';
import { ReleaseStore } from '../../store/release-store';
import { noSignals, type CanaryCounts } from '../../canary/canary-counts';
import { JUDGE_ACTOR, startCanaryJudge, type CanaryCountsSource, type CanaryJudge } from '../canary-judge';
import { eventually } from '@portico/testing/eventually';
import { manualClock, type ManualClock } from './manual-clock';
import { numberedBuilds } from '../../testing/numbered-builds';

const KINDS = serverTestsRun() ? (['embedded', 'server'] as const) : (['embedded'] as const);

const build = numberedBuilds();

/**
 * The counts backend, faked: synthetic aggregates by release id, all from
 * one network (these canaries run with minNetworks 1, as the judge decided
 * before networks were counted), set by the test; what the judge asked
 * for is kept, to check it reads the canary's own counts.
 */
function fakeHealth() {
  const byRelease = new Map<string, ReleaseHealth>();
  const asked: { canary: number; section: SectionId; activeId: string }[] = [];
  let failing: Error | undefined;
  const side = (id: string): CanaryCounts['active'] => {
    const known = byRelease.get(id);
    const networks = known ? [{ network: 'one', visits: known.visits, failures: known.failures, lcp: new Map(), inp: new Map() }] : [];
    return { networks, signals: noSignals() };
  };
  const source: CanaryCountsSource = (canary, activeId) => {
    asked.push({ canary: canary.id, section: canary.section, activeId });
    if (failing) return Promise.reject(failing);
    return Promise.resolve({ active: side(activeId), candidate: side(canary.release.id) });
  };
  return { source, byRelease, asked, fail: (error: Error | undefined) => (failing = error) };
}

describe.each(KINDS)('the canary judge on the %s database', (kind) => {
  let database: TestDatabase;
  let store: ReleaseStore;
  let other: ReleaseStore;
  const judges: CanaryJudge[] = [];
  // The judge's lines as the server writes them: each one's level, words and fields.
  let log: CapturedLog;
  const said = () => log.lines.map(({ level, msg, section, release, detail, problem }) => ({ level, msg, section, release, detail, problem }));

  beforeAll(async () => {
    database = kind === 'embedded' ? embeddedTestDatabase() : serverTestDatabase();
    const db = await database.open();
    store = await ReleaseStore.open(db);
    // A second server's store: on a server its own pool; embedded, the one database object a process has.
    other = await ReleaseStore.open(kind === 'embedded' ? db : await database.open());
  }, 60_000);

  // A judge left running would judge the next test's canary, and its transactions would meet the TRUNCATE below.
  afterEach(async () => {
    await Promise.all(judges.splice(0).map((judge) => judge.close()));
  });

  afterAll(async () => {
    await store?.db.close();
    if (other?.db !== store?.db) await other?.db.close();
    database?.cleanUp();
  });

  beforeEach(async () => {
    log = captureLog();
    await store.db.exec('TRUNCATE releases, release_sections, release_activations, release_audit, release_canaries, canary_bounded CASCADE');
  });

  const judge = (on: ReleaseStore, counts: CanaryCountsSource, everyMs = 60_000, clock?: ManualClock) => {
    const started = startCanaryJudge({ store: on, counts, everyMs, log: log.logger, clock });
    judges.push(started);
    return started;
  };

  /** contact with `old` active and `next` in a canary. */
  async function canary(options: { minVisits?: number; promoteAfterVisits?: number } = {}) {
    const old = (await store.releases.publish(build('contact'))).release.id;
    await store.history.activate('contact', old, 'integrator');
    const next = (await store.releases.publish(build('contact'))).release.id;
    const started = await store.canaries.start('contact', next, { percent: 50, minVisits: 10, minNetworks: 1, ...options }, 'integrator');
    return { old, next, started };
  }
  const judgeEntries = async () => (await store.audit.list({ sections: ['contact'] })).filter((entry) => entry.actor === JUDGE_ACTOR);

  it('rolls back a failing candidate once it has minVisits visits, comparing both since the canary started, with the numbers in the audit log', async () => {
    const { old, next, started } = await canary();
    const fake = fakeHealth();
    fake.byRelease.set(old, health(13, 0));
    fake.byRelease.set(next, health(9, 6));
    const judging = judge(store, fake.source);
    await judging.judgeNow();
    expect(await store.canaries.running()).toHaveProperty('contact');
    expect(fake.asked).toEqual([{ canary: started.id, section: 'contact', activeId: old }]);

    fake.byRelease.set(next, health(11, 6));
    await judging.judgeNow();
    expect(await store.releases.served()).toMatchObject({ active: { contact: { id: old } }, canaries: {} });
    const [entry] = await judgeEntries();
    expect(entry).toMatchObject({
      action: 'auto-rollback',
      release: next,
      from: old,
      detail: `${next} is worse than ${old}: its failure rate past the threshold — candidate ${next}: 11 visits, 6 failures (54.5 %); active ${old}: 13 visits, 0 failures (0.0 %); failure rate 54.5 points over, more than 2.0`,
    });
    // Issue 49: the figures it read, as facts, for a console to word in its reader's language.
    expect(entry).toMatchObject({
      facts: { kind: 'abort', percent: started.percent, judged: { visits: 11, failureRate: 6 / 11, activeVisits: 13, activeFailureRate: 0 } },
    });
    // A rollback is a warning: a release set aside.
    expect(said()).toEqual([
      { level: 40, msg: 'canary: rolled back automatically', section: 'contact', release: next, detail: entry!.detail, problem: undefined },
    ]);
  });

  it('judges a first release’s canary against config.json’s URL, the baseline’s visits counted under CONFIG_BASELINE', async () => {
    // Checked to fail before: the judge skipped a section with no active release, so nothing was ever decided.
    const first = (await store.releases.publish(build('contact'))).release.id;
    const started = await store.canaries.start('contact', first, { percent: 50, minVisits: 10, minNetworks: 1 }, 'integrator');
    const fake = fakeHealth();
    fake.byRelease.set(CONFIG_BASELINE, health(13, 0));
    fake.byRelease.set(first, health(11, 6));
    await judge(store, fake.source).judgeNow();
    expect(fake.asked).toEqual([{ canary: started.id, section: 'contact', activeId: CONFIG_BASELINE }]);
    expect(await store.releases.served()).toMatchObject({ active: {}, canaries: {} });
    expect(await judgeEntries()).toEqual([
      expect.objectContaining({ action: 'auto-rollback', release: first, from: null, detail: expect.stringContaining(`${first} is worse than config.json`) }),
    ]);
  });

  it('lets a healthy candidate run, and promotes it at promoteAfterVisits: a rollback then goes back to the release it replaced', async () => {
    const { old, next } = await canary({ promoteAfterVisits: 20 });
    const fake = fakeHealth();
    fake.byRelease.set(old, health(40, 1));
    fake.byRelease.set(next, health(19, 0));
    const judging = judge(store, fake.source);
    await judging.judgeNow();
    expect(await judgeEntries()).toEqual([]);

    fake.byRelease.set(next, health(20, 0));
    await judging.judgeNow();
    expect(await judgeEntries()).toEqual([
      expect.objectContaining({ action: 'promote', release: next, from: old, detail: expect.stringContaining('failure rate 2.5 points under') }),
    ]);
    expect(await store.releases.served()).toMatchObject({ active: { contact: { id: next } }, canaries: {} });
    // A promotion is routine: info.
    expect(said()).toEqual([expect.objectContaining({ level: 30, msg: 'canary: promoted', section: 'contact', release: next })]);
    expect((await store.history.rollback('contact', undefined, 'integrator')).active?.id).toBe(old);
  });

  it('judges on its own every everyMs, and treats a release the health source does not know as having no visits', async () => {
    const { next } = await canary();
    const fake = fakeHealth();
    fake.byRelease.set(next, health(10, 1));
    // Its own timer, turned by hand: no round before everyMs, one at it.
    const clock = manualClock(new Date());
    judge(store, fake.source, 5000, clock);
    clock.advance(4999);
    expect(fake.asked).toEqual([]);
    clock.advance(1);
    await eventually(async () => (await store.canaries.running()).contact === undefined, { what: 'the canary ended', withinMs: 10_000 });
    expect(await judgeEntries()).toEqual([expect.objectContaining({ action: 'auto-rollback', detail: expect.stringContaining('active contact-') })]);
    expect((await judgeEntries())[0]!.detail).toContain(': no visits; failure rate 10.0 points over');
  });

  it('logs a health source that fails once, leaves the canary running, and says when it judges again', async () => {
    const { old, next } = await canary();
    const fake = fakeHealth();
    fake.fail(new Error('the aggregates are away'));
    const judging = judge(store, fake.source);
    await judging.judgeNow();
    await judging.judgeNow();
    // Once per outage, an error (no canary is judged meanwhile), with the cause as a field.
    expect(said()).toEqual([
      expect.objectContaining({ level: 50, msg: 'canary: the canaries cannot be judged now', problem: 'contact: the aggregates are away' }),
    ]);
    expect(log.lines[0]).toMatchObject({ retryEveryMs: 60_000 });
    expect(await store.canaries.running()).toHaveProperty('contact');
    fake.fail(undefined);
    fake.byRelease.set(old, health(10, 0));
    fake.byRelease.set(next, health(10, 0));
    await judging.judgeNow();
    expect(said().at(-1)).toMatchObject({ level: 30, msg: 'canary: judging the canaries again' });
  });

  it('takes the decision once when two servers judge at the same moment', async () => {
    const { old, next } = await canary();
    const fake = fakeHealth();
    fake.byRelease.set(old, health(20, 0));
    fake.byRelease.set(next, health(20, 10));
    // Four judges on each of two servers, each round at the same moment: several read the canary, one ends it.
    const everyJudge = [store, other, store, other, store, other, store, other].map((on) => judge(on, fake.source));
    await Promise.all(everyJudge.map((one) => one.judgeNow()));
    expect((await judgeEntries()).map((entry) => entry.action)).toEqual(['auto-rollback']);
    expect(fake.asked.length).toBeGreaterThanOrEqual(2);
    expect(await other.releases.served()).toMatchObject({ active: { contact: { id: old } }, canaries: {} });
  });
});
