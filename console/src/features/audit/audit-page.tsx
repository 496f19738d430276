import { useState, type FormEvent } from 'react';
import { AUDIT_CSV_PATH, auditEntrySchema, CONTROL_API } from '@portico/control-contract';
import { useSectionList } from '../../app/section-list-context';
import { download } from '../../api/download';
import { useAction } from '../../api/use-action';
import { useLoad } from '../../api/use-load';
import { DataTable, Pager } from '../../components/data-table';
import { OutcomeLine } from '../../components/outcome';
import { formatInstant } from '../../i18n/format';
import { auditDetail } from './audit-words';
import { useConsoleLanguage } from '../../i18n/use-console-text';

const PAGE_SIZE = 50;

interface Filters {
  section: string;
  actor: string;
  action: string;
  since: string;
  until: string;
}

const NO_FILTERS: Filters = { section: '', actor: '', action: '', since: '', until: '' };

/** `2026-11-26T10:00` (a datetime-local field, read as UTC like every time the console shows) as ISO, or undefined. */
const instant = (value: string) => (value ? `${value}:00Z` : undefined);

/** The audit log, newest first: filtered by section, actor, action and time, paged by the API's cursor, exported as CSV. */
export function AuditPage() {
  const { language, text } = useConsoleLanguage();
  const t = text.audit;
  const { sections = [], nameOf } = useSectionList();
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // The cursors of the pages shown so far: the first page has none.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const page = cursors.length - 1;
  const query = {
    section: filters.section || undefined,
    actor: filters.actor || undefined,
    action: auditEntrySchema.shape.action.safeParse(filters.action).data,
    since: instant(filters.since),
    until: instant(filters.until),
  };
  const entries = useLoad(
    (session) => session.client.call(CONTROL_API.audit.list, { query: { ...query, limit: String(PAGE_SIZE), before: cursors[page] } }),
    [JSON.stringify(filters), page],
    ['audit'],
  );
  const exporting = useAction();
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(draft);
    setCursors([undefined]);
  };
  const field = (key: keyof Filters) => ({
    value: draft[key],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value }),
  });
  const rows = entries.data ?? [];
  return (
    <>
      <h1>{t.heading}</h1>
      <form onSubmit={apply} className="filters" aria-label={t.filters}>
        <label htmlFor="audit-section">{t.section}</label>
        <select id="audit-section" {...field('section')}>
          <option value="">{t.any}</option>
          {sections.map((section) => (
            <option key={section.id} value={section.id}>
              {section.labels[language]}
            </option>
          ))}
        </select>
        <label htmlFor="audit-actor">{t.actor}</label>
        <input id="audit-actor" type="text" {...field('actor')} />
        <label htmlFor="audit-action">{t.action}</label>
        <select id="audit-action" {...field('action')}>
          <option value="">{t.any}</option>
          {auditEntrySchema.shape.action.options.map((action) => (
            <option key={action} value={action}>
              {t.actions[action]}
            </option>
          ))}
        </select>
        <label htmlFor="audit-since">{t.since}</label>
        <input id="audit-since" type="datetime-local" {...field('since')} />
        <label htmlFor="audit-until">{t.until}</label>
        <input id="audit-until" type="datetime-local" {...field('until')} />
        <button type="submit" className="primary">
          {t.apply}
        </button>
        <button
          type="button"
          disabled={exporting.busy}
          onClick={() =>
            void exporting.run(
              (session) => download(session, AUDIT_CSV_PATH, query as Record<string, string | undefined>, 'audit.csv'),
              () => text.common.exported,
            )
          }
        >
          {t.exportCsv}
        </button>
      </form>
      <OutcomeLine outcome={exporting.outcome} />
      {entries.error && <p role="alert">{entries.error}</p>}
      {entries.data && (
        <DataTable
          caption={t.heading}
          captionHidden
          rows={rows}
          rowKey={(entry) => `${entry.cursor ?? ''}${entry.at}${entry.action}${entry.detail}`}
          empty={t.empty}
          pageSize={PAGE_SIZE}
          columns={[
            { key: 'at', header: t.at, cell: (entry) => formatInstant(entry.at, language), sortValue: (entry) => entry.at },
            { key: 'actor', header: t.actor, cell: (entry) => entry.actor, sortValue: (entry) => entry.actor },
            { key: 'action', header: t.action, cell: (entry) => t.actions[entry.action], sortValue: (entry) => entry.action },
            {
              key: 'section',
              header: t.section,
              cell: (entry) => (entry.section ? <bdi>{nameOf(entry.section)}</bdi> : text.common.none),
              sortValue: (entry) => entry.section ?? '',
            },
            { key: 'release', header: t.release, cell: (entry) => entry.release ?? text.common.none },
            { key: 'detail', header: t.detail, cell: (entry) => auditDetail(entry, text, language) },
          ]}
        />
      )}
      {(page > 0 || rows.length === PAGE_SIZE) && (
        <Pager
          page={page}
          hasNext={rows.length === PAGE_SIZE && rows.at(-1)?.cursor !== undefined}
          onPage={(next) => setCursors(next < page ? cursors.slice(0, next + 1) : [...cursors, rows.at(-1)?.cursor])}
        />
      )}
    </>
  );
}
