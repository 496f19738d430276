import { readFileSync } from 'node:fs';

export const DEFAULT_RETENTION_DAYS = 180;

/**
 * `contact.retentionDays` of config.json: how long messages are kept, which
 * the privacy note states and the server applies. Read from the raw file
 * here with its own small check until the field joins the config schema in
 * shared-config. A missing file or field means the default; a bad value is
 * named and the default used.
 */
export function retentionDays(configPath: string | undefined): { days: number; problem?: string } {
  if (!configPath) return { days: DEFAULT_RETENTION_DAYS };
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (error) {
    return { days: DEFAULT_RETENTION_DAYS, problem: `cannot read ${configPath}: ${(error as Error).message}` };
  }
  const contact = typeof config === 'object' && config !== null ? (config as Record<string, unknown>).contact : undefined;
  if (contact === undefined) return { days: DEFAULT_RETENTION_DAYS };
  if (typeof contact !== 'object' || contact === null || Array.isArray(contact)) {
    return { days: DEFAULT_RETENTION_DAYS, problem: `contact must be an object; using ${DEFAULT_RETENTION_DAYS} days` };
  }
  const days = (contact as Record<string, unknown>).retentionDays;
  if (days === undefined) return { days: DEFAULT_RETENTION_DAYS };
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 3650) {
    return { days: DEFAULT_RETENTION_DAYS, problem: `contact.retentionDays must be a whole number of days from 1 to 3650; using ${DEFAULT_RETENTION_DAYS}` };
  }
  return { days };
}
