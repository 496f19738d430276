import { firstSight, onceEach } from '../first-sight';

// The log's "once each" memories were Sets that emptied themselves when
// full: a line said at every page was logged again after every few hundred
// others. Checked failing with that body (clear when full) in firstSight.

describe('a line logged once each, in bounded memory', () => {
  it('logs a line said at every request once, however many other lines pass between', () => {
    const lines: string[] = [];
    const log = onceEach((line) => lines.push(line), 50);
    for (let n = 0; n < 5000; n++) {
      log('section contact: its worker was set aside');
      log(`config.json: remotes.n${n} is not a URL`);
    }
    expect(lines.filter((line) => line.startsWith('section contact'))).toHaveLength(1);
    expect(lines).toHaveLength(5001);
  });

  it('forgets the least recently seen past its bound: an old line is new again', () => {
    const first = firstSight(3);
    expect(['a', 'b', 'c', 'a'].map(first)).toEqual([true, true, true, false]);
    // 'd' pushes out 'b', the least recently seen ('a' was seen after it).
    expect(['d', 'a', 'b'].map(first)).toEqual([true, false, true]);
  });
});
