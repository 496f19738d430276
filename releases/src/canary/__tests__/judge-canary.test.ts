import { bucketOf } from '../../health/vital-histogram';
import { CANARY_DEFAULTS, type Canary } from '../../release';
import { noSignals, type CanaryCounts, type NetworkCounts, type ServerSignals } from '../canary-counts';
import { decideCanary, judgeCanary, networkCap } from '../decide-canary';
import { health } from './release-health';

// The judge's bounds tried as an outsider would: one network sending any
// number of reports, any mix of failures, successes and slow vitals, for
// either release, beside real visitors from many networks.

const canary = (overrides: Partial<Canary> = {}): Canary => ({
  id: 7,
  section: 'contact',
  release: {
    id: 'contact-9',
    section: 'contact',
    manifestUrl: 'https://cdn.example/contact/9/mf-manifest.json',
    integrity: 'sha384-x',
    version: '1.0.0',
    buildId: 'b9',
    createdAt: '',
    createdBy: 'ci',
    note: null,
  },
  percent: 10,
  ...CANARY_DEFAULTS,
  startedAt: '2026-11-25T10:00:00.000Z',
  startedBy: 'integrator',
  ...overrides,
});

/** One network's reports for one release: `visits`, `failures` of them, each with this LCP (ms) when given. */
const net = (network: string, visits: number, failures: number, lcpMs?: number): NetworkCounts => ({
  network,
  visits,
  failures,
  lcp: new Map(lcpMs === undefined ? [] : [[bucketOf('lcp', lcpMs), visits]]),
  inp: new Map(),
});

const side = (networks: NetworkCounts[], signals: Partial<ServerSignals> = {}): CanaryCounts['active'] => ({
  networks,
  signals: { ...noSignals(), ...signals },
});

/** Real visitors: `count` networks, each with `visits` visits per release, `failures` of the candidate's and `activeFailures` of the active's failing. */
function real(count: number, visits: number, failures: number, activeFailures = 0, lcpMs = 2000): CanaryCounts {
  const names = Array.from({ length: count }, (_, index) => `real-${index}`);
  return {
    active: side(names.map((name) => net(name, visits, activeFailures, lcpMs))),
    candidate: side(names.map((name) => net(name, visits, failures, lcpMs))),
  };
}

/** The same counts with one more network's reports added. */
function withAttacker(counts: CanaryCounts, attack: { candidate?: NetworkCounts; active?: NetworkCounts }): CanaryCounts {
  return {
    active: side([...counts.active.networks, ...(attack.active ? [attack.active] : [])], counts.active.signals),
    candidate: side([...counts.candidate.networks, ...(attack.candidate ? [attack.candidate] : [])], counts.candidate.signals),
  };
}

/** A small seeded generator: the same cases on every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('networkCap', () => {
  it('caps the networks over the share so that none counts for more of the total, and none when none is over', () => {
    expect(networkCap([1, 1, 1, 1, 1, 1000], 0.2)).toBeCloseTo(1.25);
    expect(networkCap([10, 10, 10, 10, 10], 0.2)).toBe(Number.POSITIVE_INFINITY);
    expect(networkCap([10, 20, 30, 40, 50, 60, 70], 0.2)).toBeCloseTo(50);
    // Fewer networks than 1 / share: no cap keeps each under it.
    expect(networkCap([100, 100, 100, 100], 0.2)).toBe(0);
    expect(networkCap([5], 1)).toBe(Number.POSITIVE_INFINITY);
  });

  it('keeps every network at or under the share of the capped total', () => {
    const next = random(11);
    for (let run = 0; run < 200; run++) {
      const visits = Array.from({ length: 5 + Math.floor(next() * 20) }, () => Math.floor(next() ** 4 * 100_000));
      const cap = networkCap(visits, 0.2);
      const counted = visits.map((count) => Math.min(count, cap));
      const total = counted.reduce((sum, count) => sum + count, 0);
      for (const count of counted) expect(count).toBeLessThanOrEqual(0.2 * total + 1e-6);
    }
  });
});

describe('judgeCanary at the default bounds', () => {
  it('is not rolled back by one network sending any number of failures for a healthy candidate', () => {
    const healthy = real(10, 10, 0);
    expect(judgeCanary(canary(), healthy, 'contact-7').action).toBe('continue');
    for (const flood of [1, 10, 50, 1000, 1_000_000]) {
      const decision = judgeCanary(canary(), withAttacker(healthy, { candidate: net('attacker', flood, flood, 90_000) }), 'contact-7');
      expect([flood, decision.action]).toEqual([flood, 'continue']);
    }
  });

  it('is not promoted by one network sending any number of successes for a failing candidate and failures for the active release', () => {
    const failing = real(10, 10, 5);
    const settings = canary({ promoteAfterVisits: 50 });
    expect(judgeCanary(settings, failing, 'contact-7').action).toBe('abort');
    for (const flood of [1, 10, 50, 1000, 1_000_000]) {
      const decision = judgeCanary(
        settings,
        withAttacker(failing, { candidate: net('attacker', flood, 0, 500), active: net('attacker', flood, flood, 9000) }),
        'contact-7',
      );
      expect([flood, decision.action]).not.toEqual([flood, 'promote']);
    }
  });

  it('lets one network neither roll back a healthy candidate nor promote a failing one, whatever it sends (randomised, seeded)', () => {
    const next = random(20_261_125);
    for (let run = 0; run < 400; run++) {
      const failingCandidate = run % 2 === 1;
      const networks = 6 + Math.floor(next() * 15);
      const names = Array.from({ length: networks }, (_, index) => `real-${index}`);
      // Real visitors: the same visits on both sides; a healthy candidate fails as often as the active release, a failing one half its visits.
      const perNetwork = names.map(() => 1 + Math.floor(next() * 40));
      const activeRate = next() * 0.05;
      const lcp = 1500 + next() * 2000;
      const counts: CanaryCounts = {
        active: side(names.map((name, index) => net(name, perNetwork[index]!, Math.floor(perNetwork[index]! * activeRate), lcp))),
        candidate: side(
          names.map((name, index) =>
            net(name, perNetwork[index]!, failingCandidate ? Math.ceil(perNetwork[index]! / 2) : Math.floor(perNetwork[index]! * activeRate), lcp),
          ),
        ),
      };
      const flood = Math.floor(next() ** 3 * 100_000) + 1;
      const attack = {
        candidate: next() < 0.8 ? net('attacker', flood, Math.floor(flood * next()), next() < 0.5 ? 100 : 100_000) : undefined,
        active: next() < 0.5 ? net('attacker', flood, Math.floor(flood * next()), next() < 0.5 ? 100 : 100_000) : undefined,
      };
      const settings = canary({ minVisits: 20, promoteAfterVisits: next() < 0.5 ? null : 20 });
      const decision = judgeCanary(settings, withAttacker(counts, attack), 'contact-7');
      const forbidden = failingCandidate ? 'promote' : 'abort';
      if (decision.action === forbidden)
        throw new Error(
          `run ${run}: ${forbidden} with ${JSON.stringify({ networks, perNetwork, activeRate, flood, attack: { candidate: attack.candidate?.visits, active: attack.active?.visits } })}: ${decision.reason}`,
        );
    }
  });

  it('still rolls back a candidate failing across many networks, and promotes a healthy one, with the bounds in the numbers', () => {
    const aborted = judgeCanary(canary(), real(10, 10, 3), 'contact-7');
    expect(aborted).toMatchObject({ action: 'abort', reason: 'contact-9 is worse than contact-7: its failure rate past the threshold' });
    expect('numbers' in aborted && aborted.numbers).toMatch(
      /; visits from 10 networks \(candidate\) and 10 networks \(active\), none counted over 20\.0 %, the same with any one left out$/,
    );
    expect(judgeCanary(canary({ promoteAfterVisits: 60 }), real(10, 10, 0, 1), 'contact-7').action).toBe('promote');
  });

  it('decides nothing before minNetworks networks, nor while a decision rests on one of them', () => {
    expect(judgeCanary(canary({ minVisits: 10 }), real(4, 30, 30), 'contact-7')).toEqual({
      action: 'continue',
      reason: 'contact-9 has visits from 4 networks of the 5 a decision needs',
    });
    // Five networks at 20 % each: without any one of them, four cannot make up the counts.
    expect(judgeCanary(canary({ minVisits: 10 }), real(5, 30, 30), 'contact-7')).toMatchObject({
      action: 'continue',
      reason: expect.stringMatching(/^contact-9: a rollback would rest on one network's reports \(without them: /),
    });
    expect(judgeCanary(canary({ minVisits: 10 }), real(6, 30, 30), 'contact-7').action).toBe('abort');
  });

  it('bounds each network to its share of the counts: two networks flooding failures count as 20 % each at most', () => {
    // The leave-one-out alone would let them: without either one, the other's thousand failures still make 92 %.
    const counts = withAttacker(withAttacker(real(9, 10, 0), { candidate: net('attacker-1', 1000, 1000) }), { candidate: net('attacker-2', 1000, 1000) });
    const decision = judgeCanary(canary({ minVisits: 10, maxFailureDelta: 0.5 }), counts, 'contact-7');
    expect(decision).toEqual({ action: 'continue', reason: 'contact-9 is healthy over 150 visits' });
  });

  it('bounds each network to its share of the counts: one network of many cannot make the failure rate by itself', () => {
    // Nine networks of healthy visits and one sending a hundred times as many failed ones: counted as at most 20 %.
    const counts = withAttacker(real(9, 10, 0), { candidate: net('attacker', 1000, 1000) });
    const decision = judgeCanary(canary({ minVisits: 10, maxFailureDelta: 0.5 }), counts, 'contact-7');
    expect(decision.action).toBe('continue');
    // At a threshold of 2 points the bound alone is not enough (20 % failures): the leave-one-out is what holds.
    expect(judgeCanary(canary({ minVisits: 10 }), counts, 'contact-7').reason).toMatch(/a rollback would rest on one network's reports/);
  });
});

describe('judgeCanary with minNetworks 1 (tests, one machine)', () => {
  const scenarios: [string, Partial<Canary>, Parameters<typeof health>, Parameters<typeof health>][] = [
    ['before minVisits', { minVisits: 10 }, [100, 0], [9, 9]],
    ['a failing candidate', { minVisits: 10 }, [13, 0], [11, 6]],
    ['exactly at the threshold', {}, [100, 5], [100, 7]],
    ['a healthy one promoted', { minVisits: 10, promoteAfterVisits: 20 }, [30, 3], [20, 1]],
    ['a healthy one not yet promoted', { minVisits: 10, promoteAfterVisits: 20 }, [30, 1], [19, 0]],
    ['no active visits', { minVisits: 10 }, [0, 0], [10, 1]],
  ];

  it.each(scenarios)('decides as decideCanary does on the summed counts: %s', (_, overrides, active, candidate) => {
    const settings = canary({ ...overrides, minNetworks: 1 });
    const expected = decideCanary(settings, { active: health(...active), candidate: health(...candidate) }, 'contact-7');
    // All from one network, or spread over several: the counts add up as they are.
    const one: CanaryCounts = { active: side(active[0] ? [net('one', active[0], active[1])] : []), candidate: side([net('one', candidate[0], candidate[1])]) };
    expect(judgeCanary(settings, one, 'contact-7')).toEqual(expected);
    const split = (visits: number, failures: number) =>
      [net('a', visits - Math.floor(visits / 3), failures - Math.floor(failures / 3)), net('b', Math.floor(visits / 3), Math.floor(failures / 3))].filter(
        (counts) => counts.visits > 0,
      );
    expect(judgeCanary(settings, { active: side(split(active[0], active[1])), candidate: side(split(candidate[0], candidate[1])) }, 'contact-7')).toEqual(
      expected,
    );
  });
});

describe("what the servers saw, which needs no visitor and no network's word", () => {
  it('rolls back a candidate whose node build a server set aside, with no visit reported', () => {
    const counts: CanaryCounts = { active: side([]), candidate: side([], { setAside: 2 }) };
    expect(judgeCanary(canary(), counts, 'contact-7')).toEqual({
      action: 'abort',
      reason: 'contact-9 is worse than contact-7: its node build was set aside on the server',
      numbers: 'candidate contact-9: set aside 2 times by a server (its render workers died again and again); active contact-7: rendered on the server',
    });
    // The active release set aside too: the candidate is not worse by that.
    expect(judgeCanary(canary(), { active: side([], { setAside: 1 }), candidate: side([], { setAside: 2 }) }, 'contact-7').action).toBe('continue');
  });

  it('rolls back a candidate whose files failed the background check', () => {
    const counts: CanaryCounts = { active: side([]), candidate: side([], { broken: 'integrity: the manifest is not the bytes that were published' }) };
    expect(judgeCanary(canary(), counts, 'contact-7')).toMatchObject({
      action: 'abort',
      reason: 'contact-9 is worse than contact-7: its files failed the background check',
    });
  });

  it('counts render failures on the server and 5xx answers of /api/contact as failures, whatever the networks', () => {
    const healthy = real(10, 10, 0);
    expect(judgeCanary(canary(), healthy, 'contact-7').action).toBe('continue');
    const failingOnTheServer: CanaryCounts = { active: healthy.active, candidate: side(healthy.candidate.networks, { renderFailures: 6, contactErrors: 4 }) };
    const decision = judgeCanary(canary(), failingOnTheServer, 'contact-7');
    expect(decision).toMatchObject({ action: 'abort', numbers: expect.stringContaining('candidate contact-9: 100 visits, 10 failures (10.0 %)') });
  });
});
