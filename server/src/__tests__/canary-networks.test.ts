import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startNodeProgram, waitForOutput, PROCESS_START_MS } from '@portico/testing/processes';
import type { AttackOutcome } from '../testing/canary-networks-child';

// Issue 45's two attacks by one IPv6 customer, at the default canary
// settings (minNetworks 5, maxNetworkShare 0.2) and every cap at its
// default: real sockets from addresses of one ULA /48 (fd00::/48, a /64 per
// "device") and from ten real IPv4 /24s, in a network namespace the test
// makes (unshare --net, as root: CI is), whose loopback alone holds them
// (testing/canary-networks-child.ts). Before the judge counted a /48 as one
// network, the first rolled the healthy canary back and the second promoted
// the failing one.

/** Why this machine cannot make the namespace, or undefined when it can. */
function namespaceProblem(): string | undefined {
  const tried = spawnSync('unshare', ['--net', 'ip', '-o', 'link', 'show'], { encoding: 'utf8' });
  if (tried.error) return `unshare or ip cannot run: ${tried.error.message}`;
  return tried.status === 0 ? undefined : `unshare --net ip link show: ${tried.stderr.trim() || `exit ${tried.status}`}`;
}

const problem = namespaceProblem();
// CI runs as root with iproute2 installed (.ci/run): there a missing namespace fails, never skips.
if (problem && process.env.CI) throw new Error(`the canary network attacks need a network namespace: ${problem}`);
const describeInNamespace = problem ? describe.skip : describe;

jest.setTimeout(PROCESS_START_MS + 60_000);

describeInNamespace('one IPv6 customer (a /48 of /64s) steering a canary, at the default settings', () => {
  let result: { rollback: AttackOutcome; promote: AttackOutcome; activeAfter: string; cpuMs: number; overCap: string[] };

  beforeAll(async () => {
    const child = path.join(__dirname, '../testing/canary-networks-child.ts');
    // unshare runs node in the new namespace; the program gives its loopback the addresses.
    const program = startNodeProgram(child, { env: process.env, wrapper: ['unshare', '--net', '--'] });
    const [line] = await waitForOutput(program, /^RESULT (.*)$/m, { what: 'the attacks in their namespace' });
    result = JSON.parse(line!.slice('RESULT '.length)) as typeof result;
    await program.exited;
    process.stdout.write(`canary networks: ${JSON.stringify(result)}\n`);
  });

  test('2 /64s x 15 forged failures do not roll back a healthy canary with 50 real visits from 10 networks', () => {
    // The /48 is one network beside the ten: capped at 20 % of the counts, and left out it leaves nothing to roll back for.
    expect(result.rollback).toMatchObject({ action: 'running', networks: { candidate: 11, active: 10 } });
    expect(result.rollback.detail).toMatch(/would rest on one network's reports/);
  });

  test('8 /64s with 80 forged failures for the active release and 120 successes for the candidate do not promote a candidate failing 20 of its 40 real visits', () => {
    expect(result.promote.action).not.toBe('promote');
    expect(result.promote).toMatchObject({ networks: { candidate: 11, active: 11 } });
    expect(result.activeAfter).toBe('active');
    // Every forged report was counted (no cap took them): what held is the judge's unit.
    expect(result.overCap).toEqual([]);
  });
});
