import { MARKETS, type Language } from '@portico/contract/languages';
import { type AnswerOf, CONTROL_API } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import { useSectionList } from '../../app/section-list-context';
import { useSignedIn } from '../../app/session-context';
import { useLoad } from '../../api/use-load';
import { DataTable } from '../../components/data-table';
import { formatCount, formatInstant, formatNumber, formatRate } from '../../i18n/format';
import type { ConsoleText } from '../../i18n/console-text';
import { useConsoleLanguage } from '../../i18n/use-console-text';
import { AddSectionForm } from '../section/add-section-form';

const DAY_MS = 24 * 60 * 60 * 1000;
const CANARY_DECISIONS: readonly string[] = ['promote', 'auto-rollback', 'abort'];

/** The latest canary decision on `section` among `entries` (newest first), in words; none: no flag. */
function decidedFlag(entries: readonly AnswerOf<typeof CONTROL_API.audit.list>[number][], section: string, text: ConsoleText, language: Language): string[] {
  const entry = entries.find((candidate) => candidate.section === section && CANARY_DECISIONS.includes(candidate.action));
  // Which decision, in words: a person's abort is not the judge's rollback.
  const action = entry && text.audit.actions[entry.action];
  return entry
    ? [fill(text.overview.flagDecided, { action: action!, release: entry.release ?? '', actor: entry.actor, at: formatInstant(entry.at, language) })]
    : [];
}

/** Every section the role sees, with its active release, canary, health and flags; every server and what it serves. Live. */
export function OverviewPage() {
  const { language, text } = useConsoleLanguage();
  const { role } = useSignedIn();
  const { sections: known } = useSectionList();
  const listed = known ?? [];
  const sections = useLoad((session) => session.client.call(CONTROL_API.sections.status, { query: {} }), [], ['sections', 'releases', 'health']);
  const servers = useLoad((session) => session.client.call(CONTROL_API.servers.list, {}), [], ['servers']);
  // A canary decided in the window (by the judge or a person): the audit says so; the section's state no longer does.
  const decisions = useLoad(
    (session) => session.client.call(CONTROL_API.audit.list, { query: { since: new Date(Date.now() - DAY_MS).toISOString(), limit: '200' } }),
    [],
    ['audit'],
  );
  const t = text.overview;
  // The hours a canary judged, running or ended, read as its judge counts them; the reports as received follow where they differ.
  const reported = (counted: string, raw: string | undefined) =>
    raw === undefined || raw === counted ? counted : fill(text.section.judgedReported, { counted, reported: raw });
  return (
    <>
      <h1>{t.heading}</h1>
      <section aria-labelledby="overview-sections">
        <h2 id="overview-sections">{t.sectionsHeading}</h2>
        {sections.error && <p role="alert">{sections.error}</p>}
        {!sections.data && !sections.error && <p role="status">{text.common.loading}</p>}
        {sections.data && known?.length === 0 && <p className="empty">{t.noSections}</p>}
        {sections.data && (
          <div className="cards">
            {listed.map(({ id, labels, hidden, markets }) => {
              const shown = sections.data?.[id];
              const active = shown?.active ?? null;
              const health = active ? shown?.health[active.id] : undefined;
              const flags = [
                ...(active?.broken ? [fill(t.flagBroken, { detail: active.broken.detail })] : []),
                ...(active?.setAside ? [fill(t.flagSetAside, { detail: active.setAside.detail })] : []),
                ...(shown?.candidate?.broken ? [fill(t.flagBroken, { detail: shown.candidate.broken.detail })] : []),
                ...decidedFlag(decisions.data ?? [], id, text, language),
                ...(hidden ? [text.sectionForm.flagHidden] : []),
                ...(markets.length < MARKETS.length ? [fill(text.sectionForm.flagMarkets, { markets: markets.join(', ') })] : []),
              ];
              return (
                <article key={id} className="card" aria-labelledby={`overview-${id}`}>
                  <h3 id={`overview-${id}`}>
                    <a href={`#/sections/${id}`}>
                      <bdi>{labels[language]}</bdi>
                    </a>
                  </h3>
                  {active ? (
                    <dl>
                      <dt>{text.states.active}</dt>
                      <dd>{active.id}</dd>
                      <dt>{t.build}</dt>
                      <dd>{active.buildId}</dd>
                      <dt>{t.since}</dt>
                      <dd>{shown?.since ? formatInstant(shown.since, language) : text.common.none}</dd>
                      <dt>{t.by}</dt>
                      <dd>{shown?.by ?? text.common.none}</dd>
                      <dt>{t.visits}</dt>
                      <dd>{reported(formatCount(health?.visits ?? 0, language), health?.raw && formatCount(health.raw.visits, language))}</dd>
                      <dt>{t.failureRate}</dt>
                      <dd>{reported(formatRate(health?.failureRate ?? 0, language), health?.raw && formatRate(health.raw.failureRate, language))}</dd>
                      <dt>{t.lcp}</dt>
                      <dd>{formatNumber(health?.lcpP75 ?? null, language, ' ms')}</dd>
                      <dt>{t.inp}</dt>
                      <dd>{formatNumber(health?.inpP75 ?? null, language, ' ms')}</dd>
                      <dt>{t.cls}</dt>
                      <dd>{formatNumber(health?.clsP75 ?? null, language)}</dd>
                    </dl>
                  ) : (
                    <p className="empty">{t.noActive}</p>
                  )}
                  {shown?.candidate && shown.percent !== undefined && <p>{fill(t.canary, { percent: String(shown.percent), release: shown.candidate.id })}</p>}
                  {flags.length > 0 && (
                    <ul aria-label={t.flags} className="flags">
                      {flags.map((flag) => (
                        <li key={flag}>{flag}</li>
                      ))}
                    </ul>
                  )}
                </article>
              );
            })}
          </div>
        )}
      </section>
      {role.integrator && <AddSectionForm />}
      <section aria-labelledby="overview-servers">
        <h2 id="overview-servers">{t.serversHeading}</h2>
        {servers.error && <p role="alert">{servers.error}</p>}
        {servers.data && (
          <DataTable
            caption={t.serversHeading}
            captionHidden
            rows={servers.data}
            rowKey={(server) => server.id}
            empty={t.noServers}
            initialSort="lastSeen"
            columns={[
              { key: 'server', header: t.server, cell: (server) => `${server.host}:${server.port} (pid ${server.pid})`, sortValue: (server) => server.host },
              { key: 'serves', header: t.serves, cell: (server) => server.releases.join(', ') || text.common.none },
              { key: 'lastSeen', header: t.lastSeen, cell: (server) => formatInstant(server.lastSeenAt, language), sortValue: (server) => server.lastSeenAt },
            ]}
          />
        )}
      </section>
    </>
  );
}
