import { readFileSync } from 'node:fs';
import path from 'node:path';
import { controlPort, type PortEnvironment } from '@portico/contract/sections';
import { SettingsError } from './settings-error';
import { readSetting } from './settings';

// Where the control API listens and which token a command on this machine
// sends it. The server (which starts the API), the release command and the
// messages command all need this; it lives here, below all three.

/** In the data folder: the owner token a fresh install writes (0600), read by the commands when PORTICO_TOKEN is unset. */
export const CONTROL_TOKEN_FILE = 'control-token';

/** The address the control API listens on: loopback unless PORTICO_CONTROL_HOST names another. */
export function controlHost(env: PortEnvironment): string {
  return readSetting(env, 'PORTICO_CONTROL_HOST');
}

/**
 * The control API's URL for a command on this machine: PORTICO_CONTROL_URL,
 * else the address and port the server on this machine listens on (a
 * wildcard address is reached on loopback).
 */
export function controlUrl(env: PortEnvironment): string {
  const given = readSetting(env, 'PORTICO_CONTROL_URL');
  if (given) return given.replace(/\/+$/, '');
  const host = controlHost(env);
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${controlPort(env)}`;
}

/** The token a command sends, and where it came from (for its error messages). */
export interface ControlToken {
  token: string;
  from: string;
}

/**
 * PORTICO_TOKEN, else the owner token the server wrote to the data folder;
 * undefined when there is neither. A file this user may not read is an
 * error that says so.
 */
export function controlToken(env: NodeJS.ProcessEnv, dataDir: string): ControlToken | undefined {
  const given = readSetting(env, 'PORTICO_TOKEN');
  if (given) return { token: given, from: 'PORTICO_TOKEN' };
  const file = path.join(dataDir, CONTROL_TOKEN_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SettingsError(
      `cannot read the control token in ${file} (${(error as NodeJS.ErrnoException).code}): run the command as the server's user, or set PORTICO_TOKEN`,
    );
  }
  const token = text.trim();
  return token ? { token, from: file } : undefined;
}
