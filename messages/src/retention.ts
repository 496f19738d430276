import { parseConfig } from '@portico/shared-config/config';
import { answerConfig } from '@portico/config-server/config-answer';

const DEFAULT_RETENTION_DAYS = 180;

/**
 * `contact.retentionDays` of config.json: how long messages are kept, which
 * the privacy note states and the server applies. Read through the one config
 * reader, as `/config.json` reads it (the same size and depth caps), so the
 * server keeps exactly what the page tells the visitor. A missing file or
 * field means the default; a bad value is named and the default used.
 */
export async function retentionDays(configPath: string | undefined): Promise<{ days: number; problem?: string }> {
  if (!configPath) return { days: DEFAULT_RETENTION_DAYS };
  const answer = await answerConfig({ configPath, basePort: 0 });
  if (answer.value === undefined) return { days: DEFAULT_RETENTION_DAYS, problem: `cannot read ${configPath}: ${answer.fault ?? 'unavailable'}` };
  const { config, problems } = parseConfig(answer.value);
  const problem = problems.find(({ field }) => field === 'contact' || field.startsWith('contact.'));
  const days = config.contact?.retentionDays ?? DEFAULT_RETENTION_DAYS;
  return problem ? { days, problem: `${problem.field} ${problem.message}; using ${days} days` } : { days };
}
