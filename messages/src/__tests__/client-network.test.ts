import { canaryNetwork, clientBlock, clientNetwork } from '../http/client-network';

describe('clientNetwork: what the rate limit and the connection cap count', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['203.0.113.8', '203.0.113.8'],
    // What a dual-stack socket reports for an IPv4 client.
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:cb00:7107', '203.0.113.7'],
  ])('IPv4 %s counts as the address %s alone (carrier-grade NAT: no grouping)', (address, unit) => {
    expect(clientNetwork(address)).toBe(unit);
  });

  test.each([
    '2001:db8:1:2::1',
    '2001:db8:1:2::2',
    '2001:db8:1:2:ffff:ffff:ffff:ffff',
    '2001:0db8:0001:0002:0000:0000:0000:0001',
    '2001:DB8:1:2:A:B:C:D',
    '2001:db8:1:2:0:0:192.0.2.1',
  ])('IPv6 %s counts as its /64, 2001:db8:1:2::/64', (address) => {
    expect(clientNetwork(address)).toBe('2001:db8:1:2::/64');
  });

  test.each([
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    ['2001:db8:1::1', '2001:db8:1::/64'],
    ['::1', '::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
  ])('another /64 is another client: %s is %s', (address, unit) => {
    expect(clientNetwork(address)).toBe(unit);
  });

  test.each(['unknown', '', '127.1', 'not an address'])('%j, not an IP address, is its own unit', (value) => {
    expect(clientNetwork(value)).toBe(value);
  });
});

describe('clientBlock: the /48 over which the per-client budgets are bounded again', () => {
  test.each([
    ['2001:db8:1:2::1', '2001:db8:1::/48'],
    ['2001:db8:1:ffff::1', '2001:db8:1::/48'],
    ['2001:DB8:0001:abcd:1:2:3:4', '2001:db8:1::/48'],
    ['fd00:0:0:8::1', 'fd00::/48'],
    ['2001:db8:2::1', '2001:db8:2::/48'],
  ])('IPv6 %s is in %s', (address, block) => {
    expect(clientBlock(address)).toBe(block);
  });

  test.each(['203.0.113.7', '::ffff:203.0.113.7', 'unknown', ''])('%j has no block (IPv4 is one budget per address already)', (address) => {
    expect(clientBlock(address)).toBeUndefined();
  });
});

describe('canaryNetwork: what the canary judge counts as one network', () => {
  test.each([
    ['203.0.113.7', '203.0.113.0/24'],
    ['203.0.113.250', '203.0.113.0/24'],
    ['::ffff:203.0.113.7', '203.0.113.0/24'],
    ['203.0.114.7', '203.0.114.0/24'],
    ['2001:db8:1:2::1', '2001:db8:1::/48'],
    ['2001:db8:1:ffff:1:2:3:4', '2001:db8:1::/48'],
    ['fd00:0:0:1::1', 'fd00::/48'],
    ['fd00:0:0:8::1', 'fd00::/48'],
    ['fd00:0:1::1', 'fd00:0:1::/48'],
  ])('%s counts as %s, however many of its addresses it sends from', (address, network) => {
    expect(canaryNetwork(address)).toBe(network);
  });

  test('65,536 /64s of one /48 are 65,536 clients and one canary network', () => {
    const addresses = Array.from({ length: 65_536 }, (_, index) => `2001:db8:7:${index.toString(16)}::1`);
    expect(new Set(addresses.map(clientNetwork)).size).toBe(65_536);
    expect(new Set(addresses.map(canaryNetwork))).toEqual(new Set(['2001:db8:7::/48']));
  });

  test.each(['unknown', 'not an address'])('%j, not an IP address, is its own network', (value) => {
    expect(canaryNetwork(value)).toBe(value);
  });
});
