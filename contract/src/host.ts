/** `host[:port]` as RFC 9110 allows it in Host: a name, an IPv4 address or a bracketed IPv6 one. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/;

/**
 * Splits a Host value into a clean lower-case host and hostname, or nothing
 * when it is not one: the grammar of a Host header, which the default
 * config.json, the server's Host check and PORTICO_HOSTS all read.
 */
export function parseHost(value: string | undefined): { host: string; hostname: string } | undefined {
  const host = value?.trim().toLowerCase();
  const match = host === undefined ? null : HOST.exec(host);
  if (!host || !match) return undefined;
  const port = match[2];
  if (port !== undefined && Number(port) > 65_535) return undefined;
  return { host, hostname: match[1]! };
}
