import { eventually } from '../eventually';

describe('eventually', () => {
  test('resolves with what the check returned once it holds', async () => {
    let calls = 0;
    await expect(eventually(() => (++calls >= 3 ? `call ${calls}` : false), { everyMs: 1 })).resolves.toBe('call 3');
  });

  test('an assertion that fails at first and then passes is waited for', async () => {
    let seen = 0;
    await eventually(
      () => {
        seen += 1;
        expect(seen).toBeGreaterThan(2);
      },
      { everyMs: 1 },
    );
    expect(seen).toBe(3);
  });

  test('a condition that never holds fails at the deadline, not before, naming what was awaited', async () => {
    // On a controlled clock: the deadline is the helper's, whatever the machine is doing.
    jest.useFakeTimers();
    try {
      let settled = false;
      const waiting = eventually(() => false, { what: 'the door open', withinMs: 100, everyMs: 10 });
      waiting.catch(() => undefined).finally(() => (settled = true));
      await jest.advanceTimersByTimeAsync(90);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(20);
      await expect(waiting).rejects.toThrow(/^the door open: not within 100 ms \(the condition was still false\)$/);
    } finally {
      jest.useRealTimers();
    }
  });

  test('an assertion that never passes fails with its own last message (what was seen)', async () => {
    // On the test's own clock: a busy machine once gave the real one time for a single check in 50 ms.
    jest.useFakeTimers();
    try {
      let seen = 0;
      const failing = eventually(
        () => {
          seen += 1;
          expect(`answers ${seen}`).toBe('answers 0');
        },
        { what: 'no answers', withinMs: 50, everyMs: 5 },
      );
      failing.catch(() => undefined);
      await jest.advanceTimersByTimeAsync(60);
      await expect(failing).rejects.toThrow(/no answers: not within 50 ms; the last check failed with:[\s\S]*Received: "answers \d+"/);
      expect(seen).toBeGreaterThan(1);
    } finally {
      jest.useRealTimers();
    }
  });

  test('a check that throws a non-Error still fails with it', async () => {
    await expect(
      eventually(
        () => {
          throw 'plain text';
        },
        { withinMs: 10, everyMs: 5 },
      ),
    ).rejects.toThrow(/the awaited condition: not within 10 ms; the last check failed with:\nplain text/);
  });
});
