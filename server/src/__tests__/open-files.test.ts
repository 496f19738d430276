import path from 'node:path';
import { eventually } from '@portico/testing/eventually';
import { pipelinedFlood } from '@portico/testing/pipelined-flood';
import { PROCESS_START_MS, startNodeProgram, waitForOutput } from '@portico/testing/processes';
import { connectionBudget, openFileLimit } from '../client-limits';
import { httpRequest, rawRequest } from './built-site';

// Issue 46, item 4: one client's connections must not run the process out
// of file descriptors. The server runs under an open-file limit of 256
// (prlimit, soft and hard: Node raises a soft limit to the hard one), and
// 127.0.0.2 opens 250 connections, each asking for a 4 MB file 20 times
// pipelined and never reading (an answer stuck in the buffers holds its
// file open). Checked to fail without the budget (the cap at its 256 per
// client): the visitor from 127.0.0.1 got no answer, its connection
// accepted and closed for want of a descriptor.

jest.setTimeout(PROCESS_START_MS + 60_000);

const BIG_FILE = '/big.0123456789.js';

test('under a low open-file limit, one client flooding connections and unread answers leaves descriptors for another', async () => {
  const program = startNodeProgram(path.join(__dirname, '../testing/open-files-child.ts'), {
    env: process.env,
    args: [BIG_FILE],
    wrapper: ['prlimit', '--nofile=256:256', '--'],
  });
  try {
    const [, port] = await waitForOutput(program, /^PORT (\d+)$/m, { what: 'the server under a low limit' });
    expect(program.output()).toContain('the open-file limit (256) leaves 128 connections at once; one client may hold 64 of them');
    const request = `GET ${BIG_FILE} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    const flood = await pipelinedFlood({ port: Number(port), localAddress: '127.0.0.2', connections: 250, requestsPerConnection: 20, request });
    try {
      await eventually(() => program.output().includes('a client holds 64 connections'), { what: 'the connections past the client cap closed' });
      for (const target of ['/', '/main.0123456789.js', BIG_FILE]) {
        const answer = await rawRequest(Number(port), httpRequest(target, { host: `127.0.0.1:${port}` }), 20_000);
        expect(answer?.status).toBe(200);
      }
      expect(program.output()).not.toMatch(/EMFILE/);
    } finally {
      flood.stop();
    }
  } finally {
    program.child.kill('SIGTERM');
    await program.exited;
  }
});

describe('connectionBudget', () => {
  test('half the open-file limit for connections, half of that for one client at most', () => {
    expect(connectionBudget(20_000, 256)).toEqual({ connections: 10_000, perClient: 256 });
    expect(connectionBudget(1_024, 256)).toEqual({ connections: 512, perClient: 256 });
    expect(connectionBudget(256, 256)).toMatchObject({ connections: 128, perClient: 64 });
    expect(connectionBudget(undefined, 256)).toEqual({ connections: undefined, perClient: 256 });
  });

  test("this process's limit is read from /proc", () => {
    const limit = openFileLimit();
    if (process.platform === 'linux') expect(limit).toBeGreaterThan(0);
  });
});
