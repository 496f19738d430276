import type { SectionId } from '@portico/shared-config/contract';

/** The four apps: the host and one remote per section, in port order. */
export const APP_NAMES = ['host', 'home', 'about', 'contact'] as const;
export type AppName = 'host' | SectionId;

/** The folder (workspace) each app builds in, relative to the repository root. */
export const APP_DIRS: Record<AppName, string> = {
  host: 'host',
  home: 'remote-home',
  about: 'remote-about',
  contact: 'remote-contact',
};

export const DEFAULT_PORT = 8080;

/** `PORT=N` puts the host on N and the remotes on N+1..N+3. */
export function basePort(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65_532) {
    throw new Error(`PORT must be a whole number from 1 to 65532 (it and the next three are used), got "${raw}"`);
  }
  return port;
}

export function portOf(app: AppName, env: NodeJS.ProcessEnv = process.env): number {
  return basePort(env) + APP_NAMES.indexOf(app);
}
