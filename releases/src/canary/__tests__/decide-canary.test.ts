import { CANARY_DEFAULTS, type Canary } from '../../release';
import { health } from './release-health';
import { decideCanary } from '../decide-canary';

const canary = (overrides: Partial<Canary> = {}): Canary => ({
  id: 1,
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

describe('decideCanary', () => {
  it('decides nothing before the candidate has minVisits visits, however bad they are', () => {
    const decision = decideCanary(canary({ minVisits: 10 }), { active: health(100, 0), candidate: health(9, 9, { lcpP75: 90_000 }) }, 'contact-7');
    expect(decision).toEqual({ action: 'continue', reason: 'contact-9 has 9 visits of the 10 it needs to be judged' });
    expect(decideCanary(canary({ minVisits: 10 }), { active: health(100, 0), candidate: health(10, 9) }).action).toBe('abort');
  });

  it("aborts when the candidate's failure rate is over the active's by more than maxFailureDelta, with the numbers in words", () => {
    const decision = decideCanary(canary({ minVisits: 10 }), { active: health(13, 0), candidate: health(11, 6) }, 'contact-7');
    expect(decision).toEqual({
      action: 'abort',
      reason: 'contact-9 is worse than contact-7: its failure rate past the threshold',
      numbers:
        'candidate contact-9: 11 visits, 6 failures (54.5 %); active contact-7: 13 visits, 0 failures (0.0 %); failure rate 54.5 points over, more than 2.0',
      // The same figures for the audit's facts (issue 49), which a console words in its reader's language.
      figures: { visits: 11, failureRate: 6 / 11, activeVisits: 13, activeFailureRate: 0 },
    });
  });

  it('compares fractions: over by exactly maxFailureDelta goes on, a visit more aborts', () => {
    // 7 % against 5 %: 0.07 - 0.05 is 0.020000000000000004 in floating point, which is not over 0.02.
    expect(decideCanary(canary(), { active: health(100, 5), candidate: health(100, 7) }).action).toBe('continue');
    expect(decideCanary(canary(), { active: health(100, 5), candidate: health(100, 8) }).action).toBe('abort');
    expect(decideCanary(canary({ maxFailureDelta: 0.1 }), { active: health(100, 5), candidate: health(100, 15) }).action).toBe('continue');
    expect(decideCanary(canary({ maxFailureDelta: 0 }), { active: health(100, 5), candidate: health(100, 6) }).action).toBe('abort');
  });

  it('counts an active release with no visits as failing none, and says it had none', () => {
    const failing = decideCanary(canary({ minVisits: 10 }), { active: health(0, 0), candidate: health(10, 1) }, 'contact-7');
    expect(failing).toMatchObject({
      action: 'abort',
      numbers: 'candidate contact-9: 10 visits, 1 failure (10.0 %); active contact-7: no visits; failure rate 10.0 points over, more than 2.0',
    });
    expect(decideCanary(canary({ minVisits: 10 }), { active: health(0, 0), candidate: health(10, 0) }).action).toBe('continue');
  });

  it('aborts when p75 LCP or p75 INP is slower by more than maxSlowdown, naming each one past it', () => {
    const lcp = decideCanary(
      canary(),
      { active: health(60, 0, { lcpP75: 2400, inpP75: 200 }), candidate: health(60, 0, { lcpP75: 3400, inpP75: 210 }) },
      'contact-7',
    );
    expect(lcp).toEqual({
      action: 'abort',
      reason: 'contact-9 is worse than contact-7: its p75 LCP past the threshold',
      numbers:
        'candidate contact-9: 60 visits, 0 failures (0.0 %), p75 LCP 3400 ms; active contact-7: 60 visits, 0 failures (0.0 %), p75 LCP 2400 ms; p75 LCP 41.7 % slower, more than 25.0 %',
      figures: { visits: 60, failureRate: 0, activeVisits: 60, activeFailureRate: 0, slower: [{ vital: 'lcpP75', by: 3400 / 2400 - 1 }] },
    });
    const both = decideCanary(canary(), { active: health(60, 0, { lcpP75: 2000, inpP75: 100 }), candidate: health(60, 3, { lcpP75: 2600, inpP75: 180 }) });
    expect(both.action).toBe('abort');
    expect(both.reason).toBe('contact-9 is worse than release: its failure rate and its p75 LCP and its p75 INP past the threshold');
    expect('numbers' in both && both.numbers).toContain(
      'failure rate 5.0 points over, more than 2.0; p75 LCP 30.0 % slower, more than 25.0 %; p75 INP 80.0 % slower, more than 25.0 %',
    );
  });

  it('lets a slowdown of exactly maxSlowdown go on, and ignores CLS', () => {
    expect(
      decideCanary(canary(), { active: health(60, 0, { lcpP75: 2000, inpP75: 100 }), candidate: health(60, 0, { lcpP75: 2500, inpP75: 125 }) }).action,
    ).toBe('continue');
    // 110 / 100 - 1 is 0.10000000000000009 in floating point, which is not over 0.1.
    expect(decideCanary(canary({ maxSlowdown: 0.1 }), { active: health(60, 0, { inpP75: 100 }), candidate: health(60, 0, { inpP75: 110 }) }).action).toBe(
      'continue',
    );
    expect(decideCanary(canary({ maxSlowdown: 0.1 }), { active: health(60, 0, { inpP75: 100 }), candidate: health(60, 0, { inpP75: 111 }) }).action).toBe(
      'abort',
    );
    expect(decideCanary(canary(), { active: health(60, 0, { lcpP75: 2000 }), candidate: health(60, 0, { lcpP75: 2501 }) }).action).toBe('abort');
    expect(decideCanary(canary(), { active: health(60, 0, { clsP75: 0.01 }), candidate: health(60, 0, { clsP75: 0.9 }) }).action).toBe('continue');
  });

  it('compares a vital only when both releases have it, and the active one above zero', () => {
    // Headless visits report no INP; an active release with no visits reports no vitals.
    expect(decideCanary(canary(), { active: health(60, 0, { lcpP75: 2000 }), candidate: health(60, 0, { lcpP75: 2100, inpP75: 900 }) }).action).toBe(
      'continue',
    );
    expect(decideCanary(canary(), { active: health(0, 0), candidate: health(60, 0, { lcpP75: 9000, inpP75: 900 }) }).action).toBe('continue');
    expect(decideCanary(canary(), { active: health(60, 0, { inpP75: 0 }), candidate: health(60, 0, { inpP75: 40 }) }).action).toBe('continue');
    expect(decideCanary(canary(), { active: health(60, 0, { inpP75: 100 }), candidate: health(60, 0, { inpP75: 126 }) }).action).toBe('abort');
  });

  it('never promotes without promoteAfterVisits, and promotes at it when healthy and failing at most as often', () => {
    expect(decideCanary(canary(), { active: health(5000, 50), candidate: health(5000, 0) })).toEqual({
      action: 'continue',
      reason: 'contact-9 is healthy over 5000 visits',
    });
    const settings = canary({ minVisits: 10, promoteAfterVisits: 20 });
    expect(decideCanary(settings, { active: health(30, 1), candidate: health(19, 0) })).toEqual({
      action: 'continue',
      reason: 'contact-9 is healthy over 19 visits; promoted at 20',
    });
    const promoted = decideCanary(settings, { active: health(30, 3, { lcpP75: 2000 }), candidate: health(20, 1, { lcpP75: 1900 }) }, 'contact-7');
    expect(promoted).toEqual({
      action: 'promote',
      reason: "contact-9 is healthy over 20 visits (promoted at 20), its failure rate at or under contact-7's",
      numbers:
        'candidate contact-9: 20 visits, 1 failure (5.0 %), p75 LCP 1900 ms, no p75 INP; active contact-7: 30 visits, 3 failures (10.0 %), p75 LCP 2000 ms, no p75 INP; failure rate 5.0 points under',
      figures: { visits: 20, failureRate: 0.05, activeVisits: 30, activeFailureRate: 0.1 },
    });
  });

  it('promotes at a failure rate equal to the active one, not over it, even within maxFailureDelta', () => {
    const settings = canary({ minVisits: 10, promoteAfterVisits: 10 });
    const equal = decideCanary(settings, { active: health(100, 10), candidate: health(10, 1) });
    expect(equal).toMatchObject({ action: 'promote', numbers: expect.stringMatching(/failure rate the same$/) });
    const over = decideCanary(settings, { active: health(100, 10), candidate: health(90, 10) });
    expect(over).toEqual({
      action: 'continue',
      reason: "contact-9 is healthy over 90 visits, but its failure rate (11.1 %) is over release's (10.0 %): not promoted",
    });
    // No active visits: promoted only with no failures of its own.
    expect(decideCanary(settings, { active: health(0, 0), candidate: health(10, 0) }).action).toBe('promote');
    expect(decideCanary(settings, { active: health(0, 0), candidate: health(50, 1) }).action).toBe('continue');
  });

  it('aborts rather than promotes a candidate past promoteAfterVisits that is slower', () => {
    const decision = decideCanary(canary({ minVisits: 10, promoteAfterVisits: 10 }), {
      active: health(50, 0, { lcpP75: 1000 }),
      candidate: health(50, 0, { lcpP75: 2000 }),
    });
    expect(decision.action).toBe('abort');
  });
});
