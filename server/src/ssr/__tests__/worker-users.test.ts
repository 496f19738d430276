import { spawn } from 'node:child_process';
import { readSetting } from '@portico/platform/settings';
import { WorkerUsers, workerUsers } from '../worker-users';

// The users section workers run as when the server is root: one each, from
// a range per server (docs/decisions/section-code.md, "Each worker is a user
// of its own, from a range per server").

const root = process.getuid?.() === 0;
const testIfRoot = root || process.env.CI ? test : test.skip;

test('by default each port has a range of its own: servers on one machine never share a user', () => {
  const ranges = [8080, 8081, 8085, 9500, 65_531].map((port) => workerUsers(undefined, port));
  for (const [index, range] of ranges.entries()) {
    expect(range.count).toBe(256);
    expect(range.first).toBeGreaterThan(1_000_000_000);
    expect(range.last).toBeLessThan(2 ** 31);
    for (const other of ranges.slice(index + 1)) expect(range.last < other.first || other.last < range.first).toBe(true);
  }
});

test('PORTICO_SSR_UIDS names the range; a bad one, a short one, one with root in it, and the old one-user settings stop the start, naming the setting', () => {
  const range = workerUsers(readSetting({ PORTICO_SSR_UIDS: '2000000000-2000000063' }, 'PORTICO_SSR_UIDS'), 8080);
  expect([range.first, range.count]).toEqual([2_000_000_000, 64]);
  for (const bad of ['0-63', '2000000000-2000000010', '2000000063-2000000000', 'nobody', '2000000000-', '3000000000-3000000063']) {
    expect(() => readSetting({ PORTICO_SSR_UIDS: bad }, 'PORTICO_SSR_UIDS')).toThrow(/^PORTICO_SSR_UIDS must be a range of user ids/);
  }
  expect(() => readSetting({ PORTICO_SSR_UID: '65534' }, 'PORTICO_SSR_UID')).toThrow(/^PORTICO_SSR_UID is replaced by PORTICO_SSR_UIDS/);
  expect(() => readSetting({ PORTICO_SSR_GID: '65534' }, 'PORTICO_SSR_GID')).toThrow(/^PORTICO_SSR_GID is replaced by PORTICO_SSR_UIDS/);
});

test('a range that holds a user or group of the system is refused: a worker would have its files', () => {
  // root (0) is in every /etc/passwd; the range check is what refuses it, whatever the setting's floor.
  expect(new WorkerUsers(0, 64).problem()).toMatch(/holds 0.*named in \/etc\/passwd or \/etc\/group/);
  expect(new WorkerUsers(2_000_000_000, 64).problem()).toBeUndefined();
});

test('each claim is a user no other worker holds, the group of the same number; given back, it comes round again only after the others', () => {
  const users = new WorkerUsers(2_100_000_000, 32);
  const claimed = Array.from({ length: 32 }, () => users.claim());
  expect(new Set(claimed.map(({ uid }) => uid)).size).toBe(32);
  for (const { uid, gid } of claimed) expect(gid).toBe(uid);
  expect(() => users.claim()).toThrow('no free user for a worker in users 2100000000-2100000031 (PORTICO_SSR_UIDS): each one runs a process now');
  claimed[5]!.release();
  claimed[5]!.release();
  expect(users.claim().uid).toBe(claimed[5]!.uid);
  expect(() => users.claim()).toThrow(/no free user/);
});

testIfRoot('a user some process runs as (a worker that outlived its end, another server on the same range) is never handed out', async () => {
  const users = new WorkerUsers(2_100_001_000, 32);
  const taken = users.claim();
  taken.release();
  // A process as that user, as a worker that lingers would be.
  const lingering = spawn('sleep', ['60'], { uid: taken.uid, gid: taken.gid, stdio: 'ignore' });
  await new Promise((resolve) => lingering.once('spawn', resolve));
  try {
    const claims = Array.from({ length: 31 }, () => users.claim());
    expect(claims.map(({ uid }) => uid)).not.toContain(taken.uid);
    expect(() => users.claim()).toThrow(/no free user/);
  } finally {
    lingering.kill('SIGKILL');
  }
});
