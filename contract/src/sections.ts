/**
 * The three built-in sections, in their default tab order: the default set
 * (section-entries.ts), not the only one. An integrator adds more at run
 * time, so a section's id is any string the id grammar allows.
 */
export const SECTION_IDS = ['home', 'about', 'contact'] as const;
export type BuiltInSectionId = (typeof SECTION_IDS)[number];
/** A section's id: a built-in one or one an integrator added (sectionIdProblem says which strings can be). */
export type SectionId = string;

/**
 * What the integrator grants a section in the visitor's browser: with
 * `interactive` its build may hydrate (run its script in the page); without,
 * the page shows only the HTML the server rendered from it and never loads
 * its browser code. A value per section, so a section added at run time
 * (issue 48) is given its own when it is added.
 */
export interface SectionGrant {
  interactive: boolean;
}

/** The built-in sections' grants until an integrator changes one: Home and About static, Contact interactive. */
export const BUILT_IN_GRANTS: Readonly<Record<BuiltInSectionId, SectionGrant>> = {
  home: { interactive: false },
  about: { interactive: false },
  contact: { interactive: true },
};

/** A section's grant before an integrator sets one: its built-in one, or static for a section added without one. */
export function defaultGrantOf(id: SectionId): SectionGrant {
  return (BUILT_IN_GRANTS as Partial<Record<SectionId, SectionGrant>>)[id] ?? { interactive: false };
}

/** The request the host makes of each remote, and the remote's expose key. */
export const EXPOSED_SECTION = './section';

/** A section's remote, by its federation name: `portico_<id>`, each `-` as `_` (a federation name is a JavaScript identifier). */
export function remoteNameOf(id: SectionId): string {
  return `portico_${id.replaceAll('-', '_')}`;
}

/** The four apps: the host and one remote per section, in port order. */
export const APP_NAMES = ['host', 'home', 'about', 'contact'] as const;
export type AppName = 'host' | BuiltInSectionId;

/** The folder (workspace) each app builds in, relative to the repository root. */
export const APP_DIRS: Record<AppName, string> = {
  host: 'host',
  home: 'remote-home',
  about: 'remote-about',
  contact: 'remote-contact',
};

export const DEFAULT_PORT = 8080;

/**
 * The environment variables a port is read from. Passed in rather than read
 * from `process.env`: the contract is bundled into browsers too, so it uses
 * nothing of Node's.
 */
export type PortEnvironment = Readonly<Record<string, string | undefined>>;

/** The control API (releases, tokens, messages) listens on the host's port + this: 8084 by default, never on a page's port. */
export const CONTROL_PORT_OFFSET = 4;

/** `PORT=N` puts the host on N, the remotes on N+1..N+3 and the control API on N+4. */
export function basePort(env: PortEnvironment): number {
  const raw = env.PORT;
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65_535 - CONTROL_PORT_OFFSET) {
    throw new Error(`PORT must be a whole number from 1 to ${65_535 - CONTROL_PORT_OFFSET} (it and the next four are used), got "${raw}"`);
  }
  return port;
}

export function portOf(app: AppName, env: PortEnvironment): number {
  return basePort(env) + APP_NAMES.indexOf(app);
}

/** Where the control API listens: PORT + 4. */
export function controlPort(env: PortEnvironment): number {
  return basePort(env) + CONTROL_PORT_OFFSET;
}

/**
 * Where each remote's manifest is when all four apps run on `hostname`: on
 * `port` + the app's index, or on `ports` (in APP_NAMES order) where a server
 * listens on ephemeral ports.
 */
export function defaultRemoteUrls(hostname: string, port: number, ports?: readonly number[]): Record<BuiltInSectionId, string> {
  const urlOf = (app: BuiltInSectionId) => `http://${hostname}:${ports?.[APP_NAMES.indexOf(app)] ?? port + APP_NAMES.indexOf(app)}/mf-manifest.json`;
  return { home: urlOf('home'), about: urlOf('about'), contact: urlOf('contact') };
}
