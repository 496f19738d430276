import { readFileSync } from 'node:fs';
import { parseConfig } from '@portico/shared-config/config';

export const DEFAULT_RETENTION_DAYS = 180;

/**
 * `contact.retentionDays` of config.json: how long messages are kept, which
 * the privacy note states and the server applies. Read through the one config
 * reader, so the server keeps exactly what the page tells the visitor. A
 * missing file or field means the default; a bad value is named and the
 * default used.
 */
export function retentionDays(configPath: string | undefined): { days: number; problem?: string } {
  if (!configPath) return { days: DEFAULT_RETENTION_DAYS };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (error) {
    return { days: DEFAULT_RETENTION_DAYS, problem: `cannot read ${configPath}: ${(error as Error).message}` };
  }
  const { config, problems } = parseConfig(raw);
  const problem = problems.find(({ field }) => field === 'contact' || field.startsWith('contact.'));
  const days = config.contact?.retentionDays ?? DEFAULT_RETENTION_DAYS;
  return problem ? { days, problem: `${problem.field} ${problem.message}; using ${days} days` } : { days };
}
