import { lazy, Suspense, useCallback } from 'react';
import { CONTROL_API, type listedReleaseSchema, type shownSectionSchema } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import type { z } from 'zod';
import { useSectionList } from '../../app/section-list-context';
import { useAction } from '../../api/use-action';
import { useLoad } from '../../api/use-load';
import { ConfirmButton } from '../../components/confirm-button';
import { OutcomeLine } from '../../components/outcome';
import { formatInstant } from '../../i18n/format';
import { useConsoleLanguage } from '../../i18n/use-console-text';
import { chartsOf } from './health-charts';
import { CanaryStartForm } from './canary-start-form';
import { JudgedHealth } from './judged-health';

// uPlot (about 20 KB as served) is fetched only on a section's page, not in the first load.
const HealthChart = lazy(() => import(/* webpackChunkName: "health-chart" */ './health-chart').then(({ HealthChart }) => ({ default: HealthChart })));

export interface CanaryPanelProps {
  section: string;
  shown: z.infer<typeof shownSectionSchema> | undefined;
  releases: readonly z.infer<typeof listedReleaseSchema>[];
  /** After a start, a promotion or an abort: the page reads the section again. */
  onChanged(): void;
}

/** A canary started, watched and promoted or aborted on one screen, with both releases' health over time and the judge's thresholds. */
export function CanaryPanel({ section, shown, releases, onChanged }: CanaryPanelProps) {
  const { language, text } = useConsoleLanguage();
  const t = text.section;
  const name = useSectionList().nameOf(section);
  const series = useLoad(
    (session) => session.client.call(CONTROL_API.health.series, { params: { section }, query: {} }),
    [section],
    ['health', 'releases', 'sections'],
    section,
  );
  const { reload: reloadSeries } = series;
  const changed = useCallback(() => {
    onChanged();
    reloadSeries();
  }, [onChanged, reloadSeries]);
  const action = useAction(changed);
  const startable = releases.filter((release) => release.state === 'available' || release.state === 'previous');
  const active = shown?.active?.id ?? t.rollbackToConfig;
  const candidate = shown?.candidate?.id;
  const charts = series.data ? chartsOf(series.data, text, language) : [];
  return (
    <section aria-labelledby="canary-heading">
      <h2 id="canary-heading">{t.canaryHeading}</h2>
      <OutcomeLine outcome={action.outcome} />
      {shown?.canary && candidate ? (
        <>
          <p>{fill(t.canaryRunning, { percent: String(shown.percent ?? 0), release: candidate, since: formatInstant(shown.canary.startedAt, language) })}</p>
          <div className="row-actions">
            <ConfirmButton
              label={t.promote}
              question={fill(t.promoteConfirm, { section: name, release: candidate })}
              disabled={action.busy}
              onConfirm={() =>
                void action.run(
                  (session) => session.client.call(CONTROL_API.canaries.promote, { params: { section }, body: {} }),
                  () => fill(t.promoted, { release: candidate }),
                )
              }
            />
            <ConfirmButton
              label={t.abort}
              danger
              question={fill(t.abortConfirm, { section: name, release: candidate, active })}
              disabled={action.busy}
              onConfirm={() =>
                void action.run(
                  (session) => session.client.call(CONTROL_API.canaries.abort, { params: { section }, body: {} }),
                  (answer) => fill(t.aborted, { release: answer.active?.id ?? t.rollbackToConfig }),
                )
              }
            />
          </div>
        </>
      ) : (
        <>
          <p className="empty">{t.noCanary}</p>
          {startable.length > 0 && (
            <CanaryStartForm section={section} name={name} active={active} hasActive={Boolean(shown?.active)} startable={startable} action={action} />
          )}
        </>
      )}
      {shown && <JudgedHealth section={name} shown={shown} />}
      <h3>{t.healthHeading}</h3>
      {series.error && <p role="alert">{series.error}</p>}
      {series.data && charts.length === 0 && <p className="empty">{t.noVisits}</p>}
      {charts.length > 0 && <p>{t.chartsAsReported}</p>}
      <Suspense fallback={<p role="status">{text.common.loading}</p>}>
        <div className="charts">
          {charts.map((chart) => (
            <HealthChart key={chart.title} chart={chart} />
          ))}
        </div>
      </Suspense>
    </section>
  );
}
