import { CONFIG_TIMEOUT_MS } from '../constants';
import { parseConfig, type ParsedConfig } from './parse-config';

function unavailable(url: string, reason: string): ParsedConfig {
  return { config: { remotes: {}, allowedRemoteOrigins: [] }, problems: [{ field: url, message: reason }] };
}

/** Fetches and validates config.json; never throws, every fault becomes a problem. */
export async function readConfig(url = '/config.json'): Promise<ParsedConfig> {
  let response: Response;
  try {
    // A plain request, so the page's <link rel="preload"> of config.json is
    // reused; the server's `Cache-Control: no-cache` still makes every page
    // load revalidate it.
    response = await fetch(url, { signal: AbortSignal.timeout(CONFIG_TIMEOUT_MS) });
  } catch (error) {
    return unavailable(url, `could not be fetched (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!response.ok) return unavailable(url, `answered HTTP ${response.status} instead of the configuration`);
  let raw: unknown;
  try {
    raw = await response.json();
  } catch {
    return unavailable(url, 'is not valid JSON');
  }
  return parseConfig(raw);
}

let pending: Promise<ParsedConfig> | undefined;

/**
 * The page's one read of config.json. This module is a Module Federation
 * singleton, so the host and every section share this promise.
 */
export function loadConfig(url?: string): Promise<ParsedConfig> {
  pending ??= readConfig(url);
  return pending;
}
