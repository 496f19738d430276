import { ChurnGate, MANIFEST_CHURN } from '../manifest-churn';

// The gate alone, on a clock the test moves: which versions a manifest's
// polls see are served. The server with a manifest that changes at every
// poll: churning-sections.test.ts.

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Polls once a second from `start`, each seeing the next of `versions`; what each did. */
function pollEachSecond(gate: ChurnGate, versions: (string | undefined)[], served: { hash: string | undefined }, start = 0) {
  return versions.map((seen, index) => {
    const step = gate.see(seen, served.hash, start + index * SECOND);
    if (step.step === 'adopt') served.hash = seen;
    return step;
  });
}

test('a manifest that changes at every poll: its first 5 new versions are served, then it is held at the fifth, whatever the polls see', () => {
  const gate = new ChurnGate(MANIFEST_CHURN);
  const served = { hash: 'v0' as string | undefined };
  const steps = pollEachSecond(gate, ['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10'], served);
  expect(steps.map(({ step }) => step)).toEqual(['adopt', 'adopt', 'adopt', 'adopt', 'adopt', 'hold', 'hold', 'hold', 'hold', 'hold']);
  expect(steps[5]?.began).toBe(true);
  expect(served.hash).toBe('v5');
  expect(gate.state).toEqual({ since: 5 * SECOND, versionsSince: 5 });
  // Still changing ten minutes later: still held.
  expect(gate.see('v11', served.hash, 10 * MINUTE).step).toBe('hold');
});

test('a held manifest unchanged for 2 minutes is followed again: its latest version served once, and the count starts afresh', () => {
  const gate = new ChurnGate(MANIFEST_CHURN);
  const served = { hash: 'v0' as string | undefined };
  pollEachSecond(gate, ['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7'], served);
  expect(served.hash).toBe('v5');
  // v7 seen at 6 s; unchanged since.
  expect(gate.see('v7', served.hash, 6 * SECOND + 2 * MINUTE - 1).step).toBe('hold');
  const released = gate.see('v7', served.hash, 6 * SECOND + 2 * MINUTE);
  expect(released).toEqual({ step: 'adopt', released: true });
  expect(gate.state).toBeUndefined();
  // Four more changes are followed at once, the fifth too (the release counted as one), then held again.
  const after = pollEachSecond(gate, ['v8', 'v9', 'v10', 'v11', 'v12'], { hash: 'v7' }, 3 * MINUTE);
  expect(after.map(({ step }) => step)).toEqual(['adopt', 'adopt', 'adopt', 'adopt', 'hold']);
});

test('a held manifest back at the version served and calm: released with nothing new to serve', () => {
  const gate = new ChurnGate(MANIFEST_CHURN);
  const served = { hash: 'v0' as string | undefined };
  pollEachSecond(gate, ['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v5'], served);
  expect(gate.see('v5', 'v5', 6 * SECOND + 2 * MINUTE)).toEqual({ step: 'same', released: true });
});

test('a manifest that goes away and comes back, again and again, is held too: each going is a change', () => {
  const gate = new ChurnGate(MANIFEST_CHURN);
  const served = { hash: 'v0' as string | undefined };
  const steps = pollEachSecond(gate, [undefined, 'v0', undefined, 'v0', undefined, 'v0', undefined], served);
  expect(steps.map(({ step }) => step)).toEqual(['adopt', 'adopt', 'adopt', 'adopt', 'adopt', 'hold', 'hold']);
  // Held at its fifth change, its going: the section stays with the browser until the manifest calms down.
  expect(served.hash).toBeUndefined();
});

test('changes spread wider than the window are all followed', () => {
  const gate = new ChurnGate(MANIFEST_CHURN);
  let served = 'v0';
  for (let version = 1; version <= 20; version += 1) {
    const seen = `v${version}`;
    expect(gate.see(seen, served, version * 2.5 * MINUTE).step).toBe('adopt');
    served = seen;
  }
  expect(gate.state).toBeUndefined();
});
