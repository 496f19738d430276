import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultRemoteUrls } from '../contract/apps';

// Node only: what `/config.json` answers, for the production server and for
// the host's dev server alike. Here rather than in the server so the build
// (webpack/) can serve the same answer without depending on the server.

export const DEFAULT_CONFIG_PATH = path.join(__dirname, '../../config/default-config.json');

export interface ConfigAnswer {
  status: number;
  body: string;
  /** Why the configured file could not be served, for the server's log. */
  fault?: string;
}

/** The host name a request came to, safe to put in a URL; `localhost` if odd. */
export function requestHostname(hostHeader: string | undefined): string {
  if (!hostHeader) return 'localhost';
  try {
    const { hostname } = new URL(`http://${hostHeader}`);
    return hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

async function readJson(file: string): Promise<{ value: unknown } | { fault: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { fault: `cannot read ${file}${code === 'ENOENT' ? ': no such file' : `: ${String(error)}`}` };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { fault: `${file} is not JSON: ${(error as Error).message}` };
  }
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
}): Promise<ConfigAnswer> {
  const read = await readJson(options.configPath ?? DEFAULT_CONFIG_PATH);
  if ('fault' in read) {
    return { status: 503, body: JSON.stringify({ error: 'config.json is unavailable' }), fault: read.fault };
  }
  if (options.configPath) return { status: 200, body: JSON.stringify(read.value) };

  const remotes = defaultRemoteUrls(requestHostname(options.hostHeader), options.basePort);
  return { status: 200, body: JSON.stringify({ ...(read.value as object), remotes }) };
}
