import type { Language } from '@portico/contract/languages';
import type { auditEntrySchema } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import type { z } from 'zod';
import type { ConsoleText } from '../../i18n/console-text';
import { formatCount, formatInstant, formatRate } from '../../i18n/format';

export type FactsEntry = Pick<z.infer<typeof auditEntrySchema>, 'action' | 'detail' | 'release' | 'from' | 'facts' | 'note'>;
type Facts = NonNullable<FactsEntry['facts']>;
type FactsOf<K extends Facts['kind']> = Extract<Facts, { kind: K }>;
type SectionChange = FactsOf<'section-change'>['changes'][number];

/** The words of one reader: the pack and its language's numbers and dates. */
interface Reader {
  text: ConsoleText;
  language: Language;
}

const percentOf = (percent: number, { language }: Reader) => formatRate(percent / 100, language);

/** A refused publish: the frame sentence in the reader's words around the checks' ids, each check's reason as the check wrote it. */
function refusedInWords(facts: FactsOf<'publish-refused'>, reader: Reader): string {
  const t = reader.text.audit.facts;
  const url = facts.manifestUrl;
  if (facts.origin !== undefined) return fill(t.refusedOrigin, { url, origin: facts.origin });
  if (facts.failed.length === 0) return fill(t.refusedNoManifest, { url });
  const said = [fill(t.refused, { url, checks: facts.failed.map((failed) => failed.check).join(', ') })];
  said.push(...facts.failed.map((failed) => `${failed.check}: ${failed.reason}`));
  if (facts.notRun > 0) said.push(fill(t.notRun, { count: String(facts.notRun) }));
  return said.join('; ');
}

/** A canary's start or change with its thresholds, judged against the entry's `from` (or config.json's URL). */
function canaryInWords(facts: FactsOf<'canary'>, entry: FactsEntry, reader: Reader): string {
  const t = reader.text.audit.facts;
  const { language } = reader;
  const { thresholds } = facts;
  const release = entry.release ?? '';
  const from = facts.againstConfig || entry.from === null ? t.configUrl : entry.from;
  const percent = percentOf(facts.percent, reader);
  const start = facts.was
    ? fill(t.canaryChanged, { release, percent, from, was: percentOf(facts.was.percent, reader), since: formatInstant(facts.was.startedAt, language) })
    : fill(t.canary, { release, percent, from });
  const judged = fill(t.thresholds, {
    minVisits: formatCount(thresholds.minVisits, language),
    // maxFailureDelta is a fraction of visits; its points are the percentage without the sign.
    failureDelta: formatCount(thresholds.maxFailureDelta * 100, language),
    slowdown: formatRate(thresholds.maxSlowdown, language),
  });
  const promote =
    thresholds.promoteAfterVisits === null ? t.promoteByHand : fill(t.promoteAfter, { visits: formatCount(thresholds.promoteAfterVisits, language) });
  const networks =
    thresholds.minNetworks <= 1
      ? t.networksAny
      : fill(t.networksAtLeast, { count: formatCount(thresholds.minNetworks, language), share: formatRate(thresholds.maxNetworkShare, language) });
  return [start, judged, promote, networks].join('; ');
}

/** A canary promoted or ended (by hand, or by the judge with the figures it read). */
function canaryEndInWords(facts: FactsOf<'promote' | 'abort'>, entry: FactsEntry, reader: Reader): string {
  const t = reader.text.audit.facts;
  const { language } = reader;
  const release = entry.release ?? '';
  const from = entry.from ?? t.configUrl;
  const values = { release, from, percent: percentOf(facts.percent, reader), since: formatInstant(facts.startedAt, language) };
  const said = fill(facts.kind === 'promote' ? t.promote : t.abort, values);
  if (!facts.judged) return said;
  const { visits, failureRate, activeVisits, activeFailureRate, slower = [] } = facts.judged;
  const figures = fill(t.judged, {
    from: entry.from ?? t.configUrl,
    rate: formatRate(failureRate, language),
    visits: formatCount(visits, language),
    activeRate: formatRate(activeFailureRate, language),
    activeVisits: formatCount(activeVisits, language),
  });
  const slowdowns = slower.map((one) => fill(t.slower, { vital: one.vital === 'lcpP75' ? 'p75 LCP' : 'p75 INP', by: formatRate(one.by, language) }));
  return [said, figures, ...slowdowns].join('; ');
}

/** One change of a section's entry in the reader's words. */
function changeInWords(change: SectionChange, reader: Reader): string {
  const { text } = reader;
  const t = text.audit.facts;
  switch (change.field) {
    case 'label':
      return fill(t.label, { language: text.language[change.language], from: change.from, to: change.to });
    case 'origins':
      return fill(t.origins, { origins: change.origins.join(' ') || t.none });
    case 'markets':
      return fill(t.markets, { markets: change.markets.join(' ') });
    case 'grant': {
      const to = change.interactive ? t.interactive : t.static;
      if (change.from === change.interactive) return fill(t.grantKept, { to });
      return fill(t.grant, { from: change.from ? t.interactive : t.static, to });
    }
    case 'hidden':
      return change.hidden ? t.hidden : t.shown;
    case 'policy':
      return fill(t.policy, { from: text.teams.policyNames[change.from], to: text.teams.policyNames[change.to] });
    case 'order':
      return change.after === null ? t.movedFirst : fill(t.movedAfter, { after: change.after });
  }
}

/** The kinds added with canaries, catalogue changes, refusals and marks (issue 49); undefined for the first four, which audit-words.ts words. */
export function moreFactsInWords(facts: Facts, entry: FactsEntry, reader: Reader): string | undefined {
  const t = reader.text.audit.facts;
  switch (facts.kind) {
    case 'republish': {
      if (facts.givenNote === null) return t.republish;
      const kept = facts.releaseNote === null ? t.none : `“${facts.releaseNote}”`;
      return `${t.republish}; ${fill(t.republishNote, { note: facts.givenNote, kept })}`;
    }
    case 'publish-refused':
      return refusedInWords(facts, reader);
    case 'canary':
      return canaryInWords(facts, entry, reader);
    case 'promote':
    case 'abort':
      return canaryEndInWords(facts, entry, reader);
    case 'section-change':
      return facts.changes.length === 0
        ? t.nothingChanged
        : fill(t.sectionChange, { changes: facts.changes.map((one) => changeInWords(one, reader)).join(', ') });
    case 'section-retire': {
      const said = [t.retire];
      if (facts.endedCanary) said.push(fill(t.endedCanary, { release: facts.endedCanary.release, percent: percentOf(facts.endedCanary.percent, reader) }));
      if (facts.revoked.length > 0) said.push(fill(t.revoked, { tokens: facts.revoked.join(', ') }));
      return said.join('; ');
    }
    case 'section-add': {
      const place = facts.after === null ? t.placeFirst : facts.after === undefined ? t.placeLast : fill(t.placeAfter, { after: facts.after });
      return fill(t.sectionAdd, {
        labels: `${facts.labels.en} / ${facts.labels.id}`,
        place,
        grant: facts.interactive ? t.interactive : t.static,
        origins: facts.origins.join(' ') || t.none,
        markets: facts.markets.join(' '),
      });
    }
    case 'publish-held':
      return fill(t.publishHeld, {
        count: formatCount(facts.count, reader.language),
        sections: facts.sections.join(', '),
        from: formatInstant(facts.from, reader.language),
        to: formatInstant(facts.to, reader.language),
        max: formatCount(facts.limit.max, reader.language),
        minutes: formatCount(facts.limit.minutes, reader.language),
      });
    case 'broken':
      return facts.reason === undefined ? t.whole : fill(t.broken, { reason: facts.reason });
    case 'set-aside':
      return fill(facts.again ? t.setAsideAgain : t.setAside, { reason: facts.reason });
    default:
      return undefined;
  }
}
