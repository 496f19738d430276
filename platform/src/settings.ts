import path from 'node:path';
import { z } from 'zod';
import { basePort, CONTROL_PORT_OFFSET } from '@portico/contract/sections';
import { defaultHosts, parseHostRule } from './http/host-rules';
import { SettingsError } from './settings-error';

/** Where a command or the server was started: a relative path is taken from `invokedFrom`, the defaults from `rootDir`. */
export interface Whereabouts {
  rootDir: string;
  invokedFrom: string;
}

// Every setting the server and the commands take from the environment,
// declared once: each variable's schema turns its text (undefined when
// unset) into its value, or refuses it with a message that names it. The
// server reads them all once at start (readSettings) and stops on the first
// bad one; a command reads the few it needs (readSetting). The table of
// them all is docs/settings.md, which a test holds to this list.

/** The text of one variable, unset or empty read as absent. */
const text = z
  .string()
  .optional()
  .transform((raw) => (raw === undefined || raw.trim() === '' ? undefined : raw));

/** A variable whose value `read` makes of its text, throwing a message that names it when it cannot. */
function variable<T>(read: (raw: string | undefined) => T) {
  return z
    .string()
    .optional()
    .transform((raw, context) => {
      try {
        return read(raw);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });
}

/** A whole number from `min` to `max`, undefined when unset: `NAME must be a whole number from 1 to 10, got "x"`. */
const whole = (name: string, min: number, max: number, what = '') =>
  variable((raw) => {
    const trimmed = raw?.trim() ?? '';
    if (trimmed === '') return undefined;
    const value = Number(trimmed);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`${name} must be a whole number${what} from ${min} to ${max}, got "${trimmed}"`);
    }
    return value;
  });

/** A whole number from `min` to `max` with a default, as the contact settings word it: `NAME must be a whole number from 0 to 10, not "x"`. */
const count = (name: string, fallback: number, min: number, max: number) =>
  variable((raw) => {
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
    return value;
  });

/** A switch that only `0` turns off (on by default). */
const onUnlessZero = variable((raw) => raw !== '0');

/** A 0/1 switch; unset is 0: `NAME must be 1 or 0, not "x"` (`got` for the server's own). */
const zeroOrOne = (name: string, why = '', wording: 'not' | 'got' = 'not') =>
  variable((raw) => {
    const value = raw?.trim() ?? '';
    if (value === '' || value === '0') return false;
    if (value === '1') return true;
    throw new Error(`${name} must be 1${why} or 0, ${wording === 'not' ? `not ${JSON.stringify(raw)}` : `got "${value}"`}`);
  });

/** An http(s) URL, undefined when unset. */
const httpUrl = (name: string, message: (given: string) => string = () => `${name} must be an http(s) URL`) =>
  variable((raw) => {
    const given = raw?.trim();
    if (!given) return undefined;
    if (!URL.canParse(given) || !['http:', 'https:'].includes(new URL(given).protocol)) throw new Error(message(given));
    return given;
  });

/** The fewest users a worker range may hold: a live worker per section, one starting and one retiring, previews, canaries, publish checks. */
const MIN_WORKER_USERS = 32;
/** The highest a worker's user id may be: below 2^31, which some tools read as signed. */
const MAX_WORKER_USER_ID = 2_147_483_646;

/** PORTICO_SSR_UIDS: `first-last`, undefined when unset (the port's own range). */
const userRange = variable((raw) => {
  const value = raw?.trim() ?? '';
  if (value === '') return undefined;
  const match = /^(\d+)-(\d+)$/.exec(value);
  const [first, last] = match ? [Number(match[1]), Number(match[2])] : [Number.NaN, Number.NaN];
  if (!match || first < 1000 || last > MAX_WORKER_USER_ID || last - first + 1 < MIN_WORKER_USERS) {
    throw new Error(
      `PORTICO_SSR_UIDS must be a range of user ids "first-last", at least ${MIN_WORKER_USERS} of them, from 1000 to ${MAX_WORKER_USER_ID}, held by no other server on the machine, got "${value}"`,
    );
  }
  return { first, last };
});

/** A setting that is no more: set, it stops the start with what replaces it. */
const replaced = (name: string, by: string) =>
  variable((raw) => {
    if (raw !== undefined && raw !== '') throw new Error(`${name} is replaced by ${by}`);
    return undefined;
  });

/** Health kept this long unless PORTICO_HEALTH_RETENTION_DAYS says otherwise. */
export const DEFAULT_HEALTH_RETENTION_DAYS = 30;
/** Contact messages counted per client and window (PORTICO_CONTACT_RATE_LIMIT), and the window. */
const DEFAULT_CONTACT_RATE_LIMIT = 5;
const RATE_WINDOW_SECONDS = 600;

/** The levels PORTICO_LOG_LEVEL takes, most to least said: each says its own lines and those of the levels after it. */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Each variable and its schema: the one list of what the environment may say. */
export const ENVIRONMENT = z.object({
  // Where the server listens, and for whom.
  PORT: variable((raw) => basePort({ PORT: raw })),
  HOST: text,
  PORTICO_HOSTS: variable((raw) => {
    const listed = raw
      ?.split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    return listed && listed.length > 0 ? listed.map((entry) => parseHostRule(entry)) : defaultHosts();
  }),
  PORTICO_TRUST_PROXY: zeroOrOne('PORTICO_TRUST_PROXY', ' (a proxy in front of the server sets X-Forwarded-*)', 'got'),
  PORTICO_CONNECTIONS_PER_CLIENT: whole('PORTICO_CONNECTIONS_PER_CLIENT', 16, 65_535),
  // Applied by server/serve.cjs before the settings are read (compile/start-priority.cjs); checked here like the rest.
  PORTICO_START_NICE: whole('PORTICO_START_NICE', 0, 19, ' of steps'),
  PORTICO_PUBLIC_URL: httpUrl('PORTICO_PUBLIC_URL', (given) => `PORTICO_PUBLIC_URL must be an http(s) URL, not ${JSON.stringify(given)}`),
  // What the server's log says (server/src/main.ts makes the one logger from it).
  PORTICO_LOG_LEVEL: variable((raw): LogLevel => {
    const value = raw?.trim().toLowerCase() ?? '';
    if (value === '') return 'info';
    if (!(LOG_LEVELS as readonly string[]).includes(value))
      throw new Error(`PORTICO_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
    return value as LogLevel;
  }),
  // The operator's config.json.
  PORTICO_CONFIG: text,
  // Server rendering.
  PORTICO_SSR: onUnlessZero,
  PORTICO_SSR_BUDGET_MS: whole('PORTICO_SSR_BUDGET_MS', 1, 10_000, ' of milliseconds'),
  PORTICO_SSR_CACHE: onUnlessZero,
  // Checked where the sandbox is chosen, which names the modes.
  PORTICO_SSR_SANDBOX: text,
  PORTICO_SSR_UIDS: userRange,
  PORTICO_SSR_UID: replaced(
    'PORTICO_SSR_UID',
    'PORTICO_SSR_UIDS, a range of users (each section worker runs as one of its own): e.g. PORTICO_SSR_UIDS=2000000000-2000000255',
  ),
  PORTICO_SSR_GID: replaced(
    'PORTICO_SSR_GID',
    'PORTICO_SSR_UIDS, a range of users (each section worker runs as one of its own): e.g. PORTICO_SSR_UIDS=2000000000-2000000255',
  ),
  // Health from real visits.
  PORTICO_HEALTH: onUnlessZero,
  PORTICO_BEACON_REPORTS_PER_NETWORK: whole('PORTICO_BEACON_REPORTS_PER_NETWORK', 1, 100_000),
  PORTICO_HEALTH_RETENTION_DAYS: variable((raw) => {
    const value = raw?.trim();
    if (value === undefined || value === '') return DEFAULT_HEALTH_RETENTION_DAYS;
    const days = Number(value);
    if (!/^\d+$/.test(value) || days < 1 || days > 3650)
      throw new Error(`PORTICO_HEALTH_RETENTION_DAYS must be a whole number of days from 1 to 3650, got "${value}"`);
    return days;
  }),
  // The control API, and the commands that reach it.
  PORTICO_CONTROL_HOST: variable((raw) => raw?.trim() || '127.0.0.1'),
  // The names the control port answers besides loopback's and PORTICO_CONTROL_HOST (a DNS-rebinding page names its own).
  PORTICO_CONTROL_HOSTS: variable((raw) =>
    (raw ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '')
      .map((entry) => parseHostRule(entry, 'PORTICO_CONTROL_HOSTS')),
  ),
  PORTICO_CONTROL_TOKEN: text,
  PORTICO_CONTROL_URL: httpUrl('PORTICO_CONTROL_URL', (given) => `PORTICO_CONTROL_URL must be an http(s) URL, not ${JSON.stringify(given)}`),
  PORTICO_TOKEN: variable((raw) => raw?.trim() || undefined),
  // The database and the data folder.
  DATABASE_URL: variable((raw) => {
    if (!raw) return undefined;
    if (!/^postgres(ql)?:\/\//.test(raw)) throw new Error('DATABASE_URL must be a postgres:// URL');
    return raw;
  }),
  PORTICO_DATA_DIR: text,
  // Contact messages and their delivery.
  PORTICO_CONTACT_RATE_LIMIT: count('PORTICO_CONTACT_RATE_LIMIT', DEFAULT_CONTACT_RATE_LIMIT, 0, 1_000_000),
  PORTICO_WEBHOOK_URL: variable((raw) => (raw ? new URL(httpUrlOnly('PORTICO_WEBHOOK_URL', raw)).href : undefined)),
  PORTICO_WEBHOOK_SECRET: text,
  PORTICO_SMTP_URL: variable((raw) => {
    if (!raw) return undefined;
    if (!/^smtps?:\/\//.test(raw)) throw new Error('PORTICO_SMTP_URL must be an smtp:// or smtps:// URL');
    return raw;
  }),
  PORTICO_MAIL_TO: text,
  PORTICO_MAIL_FROM: text,
  PORTICO_SMTP_ALLOW_PLAINTEXT: zeroOrOne('PORTICO_SMTP_ALLOW_PLAINTEXT'),
  PORTICO_DELIVERY_RETRY_SECONDS: count('PORTICO_DELIVERY_RETRY_SECONDS', 10, 0, 3600),
  PORTICO_DELIVERY_ATTEMPTS: count('PORTICO_DELIVERY_ATTEMPTS', 10, 1, 100),
  PORTICO_DELIVERY_LEASE_SECONDS: count('PORTICO_DELIVERY_LEASE_SECONDS', 120, 1, 3600),
});

function httpUrlOnly(name: string, raw: string): string {
  if (URL.canParse(raw) && ['http:', 'https:'].includes(new URL(raw).protocol)) return raw;
  throw new Error(`${name} must be an http(s) URL`);
}

export type SettingName = keyof typeof ENVIRONMENT.shape;
/** What the environment says, variable by variable. */
export type Environment = z.output<typeof ENVIRONMENT>;

/** The first refusal of a parse, as the error a start stops on. */
function refused(error: z.ZodError): SettingsError {
  return new SettingsError(error.issues[0]!.message);
}

/** One variable's value (a command's few, a test's one); a bad value throws a SettingsError naming it. */
export function readSetting<N extends SettingName>(env: Readonly<Record<string, string | undefined>>, name: N): Environment[N] {
  const parsed = ENVIRONMENT.shape[name].safeParse(env[name]);
  if (!parsed.success) throw refused(parsed.error);
  return parsed.data as Environment[N];
}

/** The contact messages' settings: the store, the limit, the delivery channels. */
export interface ContactSettings {
  /** A PostgreSQL server (DATABASE_URL), or undefined for the embedded database. */
  databaseUrl?: string;
  /** PORTICO_DATA_DIR: the embedded database's folder and the control token file. */
  dataDir: string;
  /** Undefined: no limit (PORTICO_CONTACT_RATE_LIMIT=0). */
  rateLimit?: { max: number; windowSeconds: number };
  webhook?: { url: string; secret: string };
  /** `allowPlaintext`: PORTICO_SMTP_ALLOW_PLAINTEXT=1, plain `smtp://` without STARTTLS to another machine. */
  mail?: { smtpUrl: string; from: string; to: string; allowPlaintext: boolean };
  /** The first retry's wait; each next one doubles (PORTICO_DELIVERY_RETRY_SECONDS). */
  retrySeconds: number;
  /** Attempts before a message is marked failed (PORTICO_DELIVERY_ATTEMPTS). */
  attempts: number;
  /** How long a claimed delivery is reserved for the process that claimed it (PORTICO_DELIVERY_LEASE_SECONDS). */
  leaseSeconds: number;
}

/** The data folder: PORTICO_DATA_DIR, a relative one taken from where the command was typed, else `data/` at the repository root. */
export function dataDirOf(environment: Pick<Environment, 'PORTICO_DATA_DIR'>, where: Whereabouts): string {
  return environment.PORTICO_DATA_DIR ? path.resolve(where.invokedFrom, environment.PORTICO_DATA_DIR) : path.join(where.rootDir, 'data');
}

/** The variables the contact messages read. */
type ContactEnvironment = Pick<
  Environment,
  | 'DATABASE_URL'
  | 'PORTICO_DATA_DIR'
  | 'PORTICO_CONTACT_RATE_LIMIT'
  | 'PORTICO_WEBHOOK_URL'
  | 'PORTICO_WEBHOOK_SECRET'
  | 'PORTICO_SMTP_URL'
  | 'PORTICO_MAIL_TO'
  | 'PORTICO_MAIL_FROM'
  | 'PORTICO_SMTP_ALLOW_PLAINTEXT'
  | 'PORTICO_DELIVERY_RETRY_SECONDS'
  | 'PORTICO_DELIVERY_ATTEMPTS'
  | 'PORTICO_DELIVERY_LEASE_SECONDS'
>;
const CONTACT_VARIABLES = ENVIRONMENT.pick({
  DATABASE_URL: true,
  PORTICO_DATA_DIR: true,
  PORTICO_CONTACT_RATE_LIMIT: true,
  PORTICO_WEBHOOK_URL: true,
  PORTICO_WEBHOOK_SECRET: true,
  PORTICO_SMTP_URL: true,
  PORTICO_MAIL_TO: true,
  PORTICO_MAIL_FROM: true,
  PORTICO_SMTP_ALLOW_PLAINTEXT: true,
  PORTICO_DELIVERY_RETRY_SECONDS: true,
  PORTICO_DELIVERY_ATTEMPTS: true,
  PORTICO_DELIVERY_LEASE_SECONDS: true,
});

/**
 * The contact messages' settings (the server's, and `npm run messages`'
 * store): those variables only, the pairs that need each other checked
 * here, naming both.
 */
export function contactSettings(env: Readonly<Record<string, string | undefined>>, where: Whereabouts): ContactSettings {
  const parsed = CONTACT_VARIABLES.safeParse(env);
  if (!parsed.success) throw refused(parsed.error);
  return contactSettingsOf(parsed.data, where);
}

function contactSettingsOf(environment: ContactEnvironment, where: Whereabouts): ContactSettings {
  const {
    PORTICO_WEBHOOK_URL: webhookUrl,
    PORTICO_WEBHOOK_SECRET: secret,
    PORTICO_SMTP_URL: smtpUrl,
    PORTICO_MAIL_TO: to,
    PORTICO_MAIL_FROM: from,
  } = environment;
  if (webhookUrl && !secret) throw new SettingsError('PORTICO_WEBHOOK_URL needs PORTICO_WEBHOOK_SECRET, the key its body is signed with');
  if (smtpUrl && (!to || !from)) throw new SettingsError('PORTICO_SMTP_URL needs PORTICO_MAIL_TO and PORTICO_MAIL_FROM');
  const limit = environment.PORTICO_CONTACT_RATE_LIMIT;
  return {
    databaseUrl: environment.DATABASE_URL,
    dataDir: dataDirOf(environment, where),
    rateLimit: limit === 0 ? undefined : { max: limit, windowSeconds: RATE_WINDOW_SECONDS },
    webhook: webhookUrl && secret ? { url: webhookUrl, secret } : undefined,
    mail: smtpUrl && to && from ? { smtpUrl, to, from, allowPlaintext: environment.PORTICO_SMTP_ALLOW_PLAINTEXT } : undefined,
    retrySeconds: environment.PORTICO_DELIVERY_RETRY_SECONDS,
    attempts: environment.PORTICO_DELIVERY_ATTEMPTS,
    leaseSeconds: environment.PORTICO_DELIVERY_LEASE_SECONDS,
  };
}

/** Parses every variable of `env`, stopping on the first that cannot be used (a SettingsError naming it). */
function readEnvironment(env: Readonly<Record<string, string | undefined>>): Environment {
  const parsed = ENVIRONMENT.safeParse(env);
  if (!parsed.success) throw refused(parsed.error);
  return parsed.data;
}

/** What `npm run serve` is told by its environment, read once at start. */
export interface Settings {
  environment: Environment;
  /** The host's port; the remotes take the next three, the control API the one after. */
  port: number;
  controlPort: number;
  /** The operator's config.json, resolved from where the command was typed. */
  configPath: string | undefined;
  /** The page's public address, which preview links open. */
  publicUrl: string;
  contact: ContactSettings;
}

/**
 * Every setting of `npm run serve`, from its environment, once: a bad value
 * stops the start with a SettingsError that names the variable.
 */
export function readSettings(env: Readonly<Record<string, string | undefined>>, where: Whereabouts): Settings {
  const environment = readEnvironment(env);
  const port = environment.PORT;
  return {
    environment,
    port,
    controlPort: port + CONTROL_PORT_OFFSET,
    configPath: environment.PORTICO_CONFIG ? path.resolve(where.invokedFrom, environment.PORTICO_CONFIG) : undefined,
    publicUrl: environment.PORTICO_PUBLIC_URL ?? `http://localhost:${port}`,
    contact: contactSettingsOf(environment, where),
  };
}
