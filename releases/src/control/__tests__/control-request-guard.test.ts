import { networkInterfaces } from 'node:os';
import { controlHostRules } from '../control-request-guard';

describe("the control port's names", () => {
  it("are loopback's and the address it listens on, bracketed when IPv6, and the configured ones", () => {
    const names = (listen: string) => controlHostRules(listen, [{ hostname: 'control.lender.internal' }]).map(({ hostname }) => hostname);
    expect(names('127.0.0.1')).toEqual(['localhost', '127.0.0.1', '[::1]', '127.0.0.1', 'control.lender.internal']);
    expect(names('10.0.0.5')).toContain('10.0.0.5');
    expect(names('FD00::5')).toContain('[fd00::5]');
    expect(names('[fd00::5]')).toContain('[fd00::5]');
  });

  it("are every address of this machine when it listens on a wildcard, and nothing else's", () => {
    const own = Object.values(networkInterfaces())
      .flatMap((addresses) => addresses ?? [])
      .filter((info) => !info.address.includes('%') && info.family === 'IPv4')
      .map((info) => info.address);
    for (const wildcard of ['0.0.0.0', '::', '[::]']) {
      const names = controlHostRules(wildcard).map(({ hostname }) => hostname);
      for (const address of own) expect(names).toContain(address);
      expect(names).not.toContain('0.0.0.0');
      expect(names).not.toContain('[::]');
    }
  });
});
