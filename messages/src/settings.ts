import { dataFolder, type Whereabouts } from '@portico/platform/data-folder';
import { SettingsError } from '@portico/platform/settings-error';
import type { RateLimit } from './store/message-store';

/** What the contact service is told by the server's environment (never by config.json, which is public). */
export interface ContactSettings {
  /** A PostgreSQL server (DATABASE_URL), or undefined for the embedded database. */
  databaseUrl?: string;
  /** PORTICO_DATA_DIR: the embedded database's folder and the control token file. */
  dataDir: string;
  rateLimit?: RateLimit;
  webhook?: { url: string; secret: string };
  /** `allowPlaintext`: PORTICO_SMTP_ALLOW_PLAINTEXT=1, plain `smtp://` without STARTTLS to another machine. */
  mail?: { smtpUrl: string; from: string; to: string; allowPlaintext: boolean };
  /** The first retry's wait; each next one doubles (PORTICO_DELIVERY_RETRY_SECONDS). */
  retrySeconds: number;
  /** Attempts before a message is marked failed (PORTICO_DELIVERY_ATTEMPTS). */
  attempts: number;
  /**
   * How long a claimed delivery is reserved for the process that claimed it
   * (PORTICO_DELIVERY_LEASE_SECONDS): after a crash, that long until another
   * process sends it. Longer than a channel's time-out.
   */
  leaseSeconds: number;
}

export const RATE_WINDOW_SECONDS = 600;

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new SettingsError(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}`);
  return value;
}

/** A 0/1 switch; unset is 0. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim() ?? '';
  if (raw === '' || raw === '0') return false;
  if (raw === '1') return true;
  throw new SettingsError(`${name} must be 1 or 0, not ${JSON.stringify(env[name])}`);
}

function httpUrl(name: string, raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // Reported below.
  }
  throw new SettingsError(`${name} must be an http(s) URL`);
}

/** Reads the contact settings, naming the variable at fault. */
export function contactSettings(env: NodeJS.ProcessEnv, options: Whereabouts): ContactSettings {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new SettingsError('DATABASE_URL must be a postgres:// URL');

  const limit = whole(env, 'PORTICO_CONTACT_RATE_LIMIT', 5, 0, 1_000_000);

  let webhook: ContactSettings['webhook'];
  if (env.PORTICO_WEBHOOK_URL) {
    if (!env.PORTICO_WEBHOOK_SECRET) throw new SettingsError('PORTICO_WEBHOOK_URL needs PORTICO_WEBHOOK_SECRET, the key its body is signed with');
    webhook = { url: httpUrl('PORTICO_WEBHOOK_URL', env.PORTICO_WEBHOOK_URL), secret: env.PORTICO_WEBHOOK_SECRET };
  }

  let mail: ContactSettings['mail'];
  if (env.PORTICO_SMTP_URL) {
    if (!/^smtps?:\/\//.test(env.PORTICO_SMTP_URL)) throw new SettingsError('PORTICO_SMTP_URL must be an smtp:// or smtps:// URL');
    if (!env.PORTICO_MAIL_TO || !env.PORTICO_MAIL_FROM) throw new SettingsError('PORTICO_SMTP_URL needs PORTICO_MAIL_TO and PORTICO_MAIL_FROM');
    mail = { smtpUrl: env.PORTICO_SMTP_URL, to: env.PORTICO_MAIL_TO, from: env.PORTICO_MAIL_FROM, allowPlaintext: flag(env, 'PORTICO_SMTP_ALLOW_PLAINTEXT') };
  }

  return {
    databaseUrl,
    dataDir: dataFolder(env, options),
    rateLimit: limit === 0 ? undefined : { max: limit, windowSeconds: RATE_WINDOW_SECONDS },
    webhook,
    mail,
    retrySeconds: whole(env, 'PORTICO_DELIVERY_RETRY_SECONDS', 10, 0, 3600),
    attempts: whole(env, 'PORTICO_DELIVERY_ATTEMPTS', 10, 1, 100),
    leaseSeconds: whole(env, 'PORTICO_DELIVERY_LEASE_SECONDS', 120, 1, 3600),
  };
}
