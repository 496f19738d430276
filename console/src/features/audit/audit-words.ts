import type { Language } from '@portico/contract/languages';
import type { auditEntrySchema } from '@portico/releases/control-contract';
import { fill } from '@portico/shared-config';
import type { z } from 'zod';
import type { ConsoleText } from '../../i18n/console-text';
import { formatRate } from '../../i18n/format';

type Entry = Pick<z.infer<typeof auditEntrySchema>, 'action' | 'detail'>;

const ALERTS_SET = /^alerts set: (\{.*\})$/s;
const ALERTS_TEST = /^test alert: (.*)$/s;
const TOKEN_CREATED = /^created (\S+) \((.*)\)$/s;
const TOKEN_REVOKED = /^revoked (\S+)(: .*)?$/s;

/** The alerts' settings an entry recorded as JSON (the API's body), in the reader's words; anything else: undefined. */
function alertsInWords(json: string, text: ConsoleText, language: Language): string | undefined {
  let changes: unknown;
  try {
    changes = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof changes !== 'object' || changes === null) return undefined;
  const t = text.alerts;
  const names: Record<string, string> = { webhookUrl: t.webhookUrl, email: t.email, failureRateThreshold: t.threshold };
  const said = Object.entries(changes).map(([key, value]) => {
    const shown =
      value === null ? text.audit.cleared : key === 'failureRateThreshold' && typeof value === 'number' ? formatRate(value, language) : String(value);
    return `${names[key] ?? key}: ${shown}`;
  });
  return fill(text.audit.alertsSet, { changes: said.join('; ') || text.audit.cleared });
}

/**
 * An audit entry's detail in the reader's language where the console knows
 * its shape (the alerts' settings, recorded as JSON; a test alert; a token
 * made or revoked); otherwise as the server wrote it (a team's note, a
 * check's reason), which no pack could translate.
 */
export function auditDetail(entry: Entry, text: ConsoleText, language: Language): string {
  const { action, detail } = entry;
  if (action === 'alerts') {
    const set = ALERTS_SET.exec(detail);
    const words = set && alertsInWords(set[1]!, text, language);
    if (words) return words;
    const test = ALERTS_TEST.exec(detail);
    if (test) return fill(text.audit.alertsTest, { outcome: test[1]! });
  }
  if (action === 'token') {
    const created = TOKEN_CREATED.exec(detail);
    if (created) return fill(text.audit.tokenCreated, { name: created[1]!, scopes: created[2]! });
    const revoked = TOKEN_REVOKED.exec(detail);
    if (revoked) return fill(text.audit.tokenRevoked, { name: revoked[1]!, why: revoked[2] ?? '' });
  }
  return detail;
}
