import type { BigIntStats } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { parseHost } from '@portico/contract/host';
import { defaultRemoteUrls } from '@portico/contract/sections';

// Node only: what `/config.json` answers, for the production server and for
// the host's dev server alike. A package of its own rather than the server's,
// so the build (webpack/) can serve the same answer without depending on the
// server, and rather than shared-config's, which is bundled for the browser.

export const DEFAULT_CONFIG_PATH = path.join(__dirname, '../config/default-config.json');

export interface ConfigAnswer {
  status: number;
  body: string;
  /** The JSON value `body` is made from, parsed once here (absent when the file cannot be served). */
  value?: unknown;
  /** Why the configured file could not be served, for the server's log. */
  fault?: string;
}

/**
 * The host name a Host header names, or `localhost` when it is missing or
 * not a plain `host[:port]` (`localhost:8080@evil.example` is not one).
 */
export function requestHostname(hostHeader: string | undefined): string {
  return parseHost(hostHeader)?.hostname ?? 'localhost';
}

/** Far more than any real config.json (a few KB); the page would download it on every visit. */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** A real config.json nests three or four levels; thousands would overflow the stack of JSON.stringify. */
const MAX_CONFIG_DEPTH = 64;

/** How deeply arrays and objects nest in a parsed JSON value, counted without recursion, up to `limit + 1`. */
function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** What reading config.json gave: its JSON value, or why it cannot be served. */
export type ConfigRead = { value: unknown } | { fault: string };

/** One reading of the file: what it gave, its text, and the version it was (fileStamp's form; the same before and after the read). */
export interface ConfigReading {
  read: ConfigRead;
  text?: string;
  stamp?: string;
  /** Its modification time, in ms. */
  mtimeMs?: number;
}

/** A file's version as its stats tell it (config-file.ts's fileStamp): device, inode, size, modification and change times in nanoseconds. */
export const configStamp = (stats: BigIntStats) => `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;

/** A file changing while it is read is read again, this many times at most, then answered as unavailable. */
const READ_ATTEMPTS = 5;

/** The file's text, unless it is not a regular file or is over MAX_CONFIG_BYTES; read again while it changes under the read. */
async function readCapped(file: string): Promise<{ text: string; stamp: string; mtimeMs: number } | { fault: string; stamp?: string }> {
  for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
    let handle;
    try {
      handle = await open(file, 'r');
      const stats = await handle.stat({ bigint: true });
      const stamp = configStamp(stats);
      if (!stats.isFile()) return { fault: `${file} is not a file`, stamp };
      const tooBig = { fault: `${file} is larger than ${MAX_CONFIG_BYTES} bytes`, stamp };
      if (stats.size > MAX_CONFIG_BYTES) return tooBig;
      const text = await handle.readFile('utf8');
      // Written to while it was read: this text may be a mix of two versions.
      if (configStamp(await handle.stat({ bigint: true })) !== stamp) continue;
      // It may have grown since the stat.
      return Buffer.byteLength(text) > MAX_CONFIG_BYTES ? tooBig : { text, stamp, mtimeMs: Number(stats.mtimeNs / 1_000_000n) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { fault: `cannot read ${file}${code === 'ENOENT' ? ': no such file' : `: ${String(error)}`}`, stamp: code === 'ENOENT' ? 'missing' : undefined };
    } finally {
      await handle?.close();
    }
  }
  return { fault: `${file} kept changing while it was read` };
}

/** Reads and parses config.json once: what it gave, with the version of the file it was. */
export async function readConfigFile(file: string): Promise<ConfigReading> {
  const read = await readCapped(file);
  if ('fault' in read) return { read: { fault: read.fault }, stamp: read.stamp };
  const { text, stamp, mtimeMs } = read;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { read: { fault: `${file} is not JSON: ${(error as Error).message}` }, text, stamp, mtimeMs };
  }
  if (jsonDepth(value, MAX_CONFIG_DEPTH) > MAX_CONFIG_DEPTH) {
    return { read: { fault: `${file} nests more than ${MAX_CONFIG_DEPTH} levels deep` }, text, stamp, mtimeMs };
  }
  return { read: { value }, text, stamp, mtimeMs };
}

/**
 * `/config.json`. With an operator's file (PORTICO_CONFIG) it is read afresh
 * on every request and served as written: the page validates it and names any
 * bad field. Without one, the default points the remotes at the ports in use
 * on the host name the visitor used, so a phone on the LAN gets LAN URLs.
 */
export async function answerConfig(options: {
  configPath?: string;
  hostHeader?: string;
  basePort: number;
  /** The port each app listens on, in APP_NAMES order, when not basePort + its index (ephemeral ports). */
  ports?: readonly number[];
}): Promise<ConfigAnswer> {
  return servedConfig((await readConfigFile(options.configPath ?? DEFAULT_CONFIG_PATH)).read, options);
}

/** `/config.json`'s answer from a reading of the file (answerConfig's, and ConfigFile's once per version). */
export function servedConfig(
  read: ConfigRead,
  options: { configPath?: string; hostHeader?: string; basePort: number; ports?: readonly number[] },
): ConfigAnswer {
  if ('fault' in read) {
    return { status: 503, body: JSON.stringify({ error: 'config.json is unavailable' }), fault: read.fault };
  }
  if (options.configPath) return { status: 200, body: JSON.stringify(read.value), value: read.value };

  const remotes = defaultRemoteUrls(requestHostname(options.hostHeader), options.basePort, options.ports);
  const value = { ...(read.value as object), remotes };
  return { status: 200, body: JSON.stringify(value), value };
}
