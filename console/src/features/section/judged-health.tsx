import type { shownSectionSchema } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import type { z } from 'zod';
import { DataTable } from '../../components/data-table';
import { formatCount, formatNumber, formatRate } from '../../i18n/format';
import { useConsoleLanguage } from '../../i18n/use-console-text';

type ShownSection = z.infer<typeof shownSectionSchema>;
type Health = ShownSection['health'][string];

interface Row {
  role: 'active' | 'candidate';
  id: string;
  health: Health | undefined;
  networks: number | undefined;
}

/**
 * A running canary's two releases as its judge counts them (each network
 * bounded to its share, the servers' own failures added), the reports as
 * received beside a figure where they differ: forged reports the judge left
 * out must not read as real visits.
 */
export function JudgedHealth({ section, shown }: { section: string; shown: ShownSection }) {
  const { language, text } = useConsoleLanguage();
  const t = text.section;
  if (!shown.canary || !shown.candidate || !shown.active) return null;
  const rows: Row[] = [
    { role: 'active', id: shown.active.id, health: shown.health[shown.active.id], networks: shown.judged?.[shown.active.id]?.networks },
    { role: 'candidate', id: shown.candidate.id, health: shown.health[shown.candidate.id], networks: shown.judged?.[shown.candidate.id]?.networks },
  ];
  /** The counted figure, then the reported one in brackets when it differs. */
  const beside = (row: Row, show: (figures: NonNullable<Health['raw']>) => string) => {
    if (!row.health) return text.common.none;
    const counted = show(row.health);
    const reported = row.health.raw && show(row.health.raw);
    return reported === undefined || reported === counted ? counted : fill(t.judgedReported, { counted, reported });
  };
  const rate = (figures: NonNullable<Health['raw']>) => (figures.visits === 0 ? '–' : formatRate(figures.failureRate, language));
  return (
    <>
      <h3>{t.judgedHeading}</h3>
      <p>{fill(t.judgedNote, { share: formatRate(shown.canary.maxNetworkShare, language) })}</p>
      <DataTable
        caption={fill(t.judgedCaption, { section })}
        rows={rows}
        rowKey={(row) => row.id}
        empty={t.noVisits}
        columns={[
          { key: 'release', header: t.canaryRelease, cell: (row) => `${row.id} (${text.states[row.role]})` },
          { key: 'visits', header: t.judgedVisits, cell: (row) => beside(row, (figures) => formatCount(figures.visits, language)) },
          { key: 'failureRate', header: t.judgedFailureRate, cell: (row) => beside(row, rate) },
          { key: 'lcp', header: t.judgedLcp, cell: (row) => beside(row, (figures) => formatNumber(figures.lcpP75, language, ' ms')) },
          { key: 'inp', header: t.judgedInp, cell: (row) => beside(row, (figures) => formatNumber(figures.inpP75, language, ' ms')) },
          { key: 'networks', header: t.judgedNetworks, cell: (row) => (row.networks === undefined ? text.common.none : String(row.networks)) },
        ]}
      />
    </>
  );
}
