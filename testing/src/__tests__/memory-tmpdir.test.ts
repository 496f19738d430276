import { existsSync, statfsSync, statSync } from 'node:fs';
import { MEMORY_TMPDIR_ENV, TMPFS_MAGIC, useMemoryTmpdir } from '../memory-tmpdir';

// The run that started these tests may have made its folder already (jest's global setup): each test
// starts as a run that has not, and leaves the environment as it found it. TMPDIR is read from the
// environment the tests see: os.tmpdir() reads the worker's own, which jest keeps apart from it.
const tmpdir = () => process.env.TMPDIR ?? '';
let inherited: NodeJS.ProcessEnv;
beforeEach(() => {
  inherited = { ...process.env };
  delete process.env[MEMORY_TMPDIR_ENV];
});
afterEach(() => {
  process.env = inherited;
});

const sharedMemoryIsTmpfs = (() => {
  try {
    return statfsSync('/dev/shm').type === TMPFS_MAGIC;
  } catch {
    return false;
  }
})();

// Linux machines (this one, CI) have /dev/shm as a tmpfs; elsewhere there is nothing to see here.
(sharedMemoryIsTmpfs ? test : test.skip)(
  'where /dev/shm is a tmpfs with room, the scratch folder is a new one there, open to every user as /tmp is, until removed',
  () => {
    const before = process.env.TMPDIR;
    const remove = useMemoryTmpdir({ roomNeededBytes: 1 });
    const folder = tmpdir();
    expect(folder).toMatch(/^\/dev\/shm\/portico-tests-/);
    expect(statSync(folder).mode & 0o7777).toBe(0o1777);
    // Once per run: a second setup, or a worker that inherited the folder, keeps it.
    useMemoryTmpdir({ roomNeededBytes: 1 });
    expect(tmpdir()).toBe(folder);
    remove();
    expect(existsSync(folder)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
    expect(process.env[MEMORY_TMPDIR_ENV]).toBeUndefined();
  },
);

test('without the room it needs, or on a file system that is not a tmpfs, the scratch folder stays where it was', () => {
  const before = tmpdir();
  useMemoryTmpdir({ roomNeededBytes: Number.MAX_SAFE_INTEGER })();
  expect(tmpdir()).toBe(before);
  useMemoryTmpdir({ under: '/proc', roomNeededBytes: 1 })();
  expect(tmpdir()).toBe(before);
  useMemoryTmpdir({ under: '/no/such/folder', roomNeededBytes: 1 })();
  expect(tmpdir()).toBe(before);
  expect(process.env[MEMORY_TMPDIR_ENV]).toBeUndefined();
});
