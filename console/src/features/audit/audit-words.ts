import type { Language } from '@portico/contract/languages';
import { fill } from '@portico/shared-config';
import type { ConsoleText } from '../../i18n/console-text';
import { formatInstant, formatRate } from '../../i18n/format';
import { moreFactsInWords, type FactsEntry } from './fact-words';

type Entry = FactsEntry;
type Facts = NonNullable<Entry['facts']>;

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

/** An entry's facts in the reader's words; the releases are the entry's own (`release`, `from`). */
function factsInWords(facts: Facts, entry: Entry, text: ConsoleText, language: Language): string {
  const t = text.audit.facts;
  const release = entry.release ?? '';
  const from = entry.from ?? '';
  const ended = (said: string, canary: { release: string; percent: number } | undefined) =>
    canary ? `${said}; ${fill(t.endedCanary, { release: canary.release, percent: formatRate(canary.percent / 100, language) })}` : said;
  switch (facts.kind) {
    case 'publish':
      return fill(t.publish, { build: facts.build, version: facts.version, url: facts.manifestUrl });
    case 'preview':
      return fill(t.preview, { until: formatInstant(facts.until, language) });
    case 'activate':
      return ended(fill(facts.again ? t.activateAgain : entry.from === null ? t.activateFirst : t.activate, { release, from }), facts.endedCanary);
    case 'rollback':
      return ended(fill(entry.release === null ? t.rollbackToConfig : t.rollback, { release, from }), facts.endedCanary);
    default:
      // A kind this console knows but words in fact-words.ts; the detail if none (never the case while the schema and the words agree).
      return moreFactsInWords(facts, entry, { text, language }) ?? entry.detail;
  }
}

/**
 * An audit entry's detail in the reader's language where the console knows
 * its shape (the facts the server sends beside it; the alerts' settings,
 * recorded as JSON; a test alert; a token made or revoked); otherwise as
 * the server wrote it (a check's reason, an entry from before the facts).
 * A note a person typed stays as typed, marked so.
 */
export function auditDetail(entry: Entry, text: ConsoleText, language: Language): string {
  const { action, detail } = entry;
  // Since issue 49 the server sends what it composed the detail from; an entry from before has its detail alone.
  if (entry.facts) {
    const said = factsInWords(entry.facts, entry, text, language);
    return entry.note ? `${said}; ${fill(text.audit.typedNote, { note: entry.note })}` : said;
  }
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
