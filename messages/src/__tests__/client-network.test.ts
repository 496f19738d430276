import { clientNetwork } from '../http/client-network';

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
