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
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** A real config.json nests three or four levels; thousands would overflow the stack of JSON.stringify. */
export const MAX_CONFIG_DEPTH = 64;

/** How deeply arrays and objects nest in a parsed JSON value, counted without recursion, up to `limit + 1`. */
export function jsonDepth(value: unknown, limit: number): number {
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

/** The file's text, unless it is not a regular file or is over MAX_CONFIG_BYTES. */
async function readCapped(file: string): Promise<{ text: string } | { fault: string }> {
  let handle;
  try {
    handle = await open(file, 'r');
    const stats = await handle.stat();
    if (!stats.isFile()) return { fault: `${file} is not a file` };
    const tooBig = { fault: `${file} is larger than ${MAX_CONFIG_BYTES} bytes` };
    if (stats.size > MAX_CONFIG_BYTES) return tooBig;
    const text = await handle.readFile('utf8');
    // It may have grown since the stat.
    return Buffer.byteLength(text) > MAX_CONFIG_BYTES ? tooBig : { text };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { fault: `cannot read ${file}${code === 'ENOENT' ? ': no such file' : `: ${String(error)}`}` };
  } finally {
    await handle?.close();
  }
}

async function readJson(file: string): Promise<{ value: unknown } | { fault: string }> {
  const read = await readCapped(file);
  if ('fault' in read) return read;
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch (error) {
    return { fault: `${file} is not JSON: ${(error as Error).message}` };
  }
  if (jsonDepth(value, MAX_CONFIG_DEPTH) > MAX_CONFIG_DEPTH) {
    return { fault: `${file} nests more than ${MAX_CONFIG_DEPTH} levels deep` };
  }
  return { value };
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
  const read = await readJson(options.configPath ?? DEFAULT_CONFIG_PATH);
  if ('fault' in read) {
    return { status: 503, body: JSON.stringify({ error: 'config.json is unavailable' }), fault: read.fault };
  }
  if (options.configPath) return { status: 200, body: JSON.stringify(read.value), value: read.value };

  const remotes = defaultRemoteUrls(requestHostname(options.hostHeader), options.basePort, options.ports);
  const value = { ...(read.value as object), remotes };
  return { status: 200, body: JSON.stringify(value), value };
}
