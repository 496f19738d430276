import { useCallback, useState, type FormEvent } from 'react';
import { ApiRefusal, checkResultSchema, CONTROL_API, notRun } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import { z } from 'zod';
import { useSectionList } from '../../app/section-list-context';
import { useAction } from '../../api/use-action';
import { useLoad } from '../../api/use-load';
import { ConfirmButton } from '../../components/confirm-button';
import { CopyButton } from '../../components/copy-button';
import { DataTable } from '../../components/data-table';
import { OutcomeLine } from '../../components/outcome';
import { formatInstant } from '../../i18n/format';
import { useConsoleLanguage } from '../../i18n/use-console-text';
import { CanaryPanel } from './canary-panel';
import { SectionSettings } from './section-settings';

export interface SectionPageProps {
  section: string;
}

const checksOf = (error: unknown) => {
  const checks = z.array(checkResultSchema).safeParse(error instanceof ApiRefusal ? error.field('checks') : undefined);
  return checks.success ? checks.data : [];
};

/** One section: its releases, publishing, previews, activation and rollback, and its canary. */
export function SectionPage({ section }: SectionPageProps) {
  const { language, text } = useConsoleLanguage();
  const t = text.section;
  const { sections, nameOf } = useSectionList();
  const name = nameOf(section);
  const entry = sections?.find((one) => one.id === section);
  const releases = useLoad((session) => session.client.call(CONTROL_API.releases.list, { query: { section } }), [section], ['releases', 'sections'], section);
  const status = useLoad((session) => session.client.call(CONTROL_API.sections.status, { query: {} }), [section], ['releases', 'sections'], section);
  const shown = status.data?.[section];
  const { reload: reloadReleases } = releases;
  const { reload: reloadStatus } = status;
  const changed = useCallback(() => {
    reloadReleases();
    reloadStatus();
  }, [reloadReleases, reloadStatus]);
  const action = useAction(changed);
  const [preview, setPreview] = useState<{ release: string; url: string; expiresAt: string }>();
  const [manifestUrl, setManifestUrl] = useState('');
  const [note, setNote] = useState('');
  const [checks, setChecks] = useState<z.infer<typeof checkResultSchema>[]>([]);

  const publish = async (event: FormEvent) => {
    event.preventDefault();
    setChecks([]);
    const published = await action.run(
      (session) => session.client.call(CONTROL_API.releases.publish, { body: { section, manifestUrl, ...(note ? { note } : {}) } }),
      (release) =>
        release.republished
          ? [
              fill(text.teams.republished, { release: release.id }),
              ...(release.note === null ? [] : [fill(text.teams.republishedNote, { note: release.note })]),
            ].join(' ')
          : fill(t.published, { release: release.id }),
      (error) => {
        setChecks(checksOf(error));
        return error instanceof ApiRefusal ? fill(t.publishRefused, { reason: error.message }) : undefined;
      },
    );
    if (published) {
      setManifestUrl('');
      setNote('');
    }
  };
  const activeId = shown?.active?.id;
  const previous = shown?.previous ?? null;
  return (
    <>
      <h1>
        <bdi>{name}</bdi>
      </h1>
      {shown?.interactive !== undefined && <p>{shown.interactive ? t.grantInteractive : t.grantStatic}</p>}
      <OutcomeLine outcome={action.outcome} />
      {preview && (
        <p className="preview">
          {fill(t.previewReady, { release: preview.release, expires: formatInstant(preview.expiresAt, language) })}{' '}
          <a href={preview.url} target="_blank" rel="noopener noreferrer">
            {preview.url}
          </a>{' '}
          <CopyButton value={preview.url} what={t.previewLink} />
        </p>
      )}
      <section aria-labelledby="releases-heading">
        <h2 id="releases-heading">{t.releasesHeading}</h2>
        {releases.error && <p role="alert">{releases.error}</p>}
        {activeId && (
          <ConfirmButton
            label={t.rollback}
            question={fill(t.rollbackConfirm, { section: name, release: previous?.id ?? t.rollbackToConfig, from: activeId })}
            disabled={action.busy}
            onConfirm={() =>
              void action.run(
                (session) => session.client.call(CONTROL_API.sections.rollback, { params: { section }, body: {} }),
                (answer) => fill(t.rolledBack, { release: answer.active?.id ?? t.rollbackToConfig }),
              )
            }
          />
        )}
        {releases.data && (
          <DataTable
            caption={fill(`${t.releasesHeading}: {section}`, { section: name })}
            rows={releases.data}
            rowKey={(release) => release.id}
            empty={t.noReleases}
            initialSort="created"
            columns={[
              { key: 'id', header: t.id, cell: (release) => release.id, sortValue: (release) => release.id },
              { key: 'state', header: t.state, cell: (release) => text.states[release.state], sortValue: (release) => release.state },
              { key: 'version', header: t.version, cell: (release) => `${release.version} (${release.buildId})` },
              { key: 'created', header: t.created, cell: (release) => formatInstant(release.createdAt, language), sortValue: (release) => release.createdAt },
              { key: 'by', header: t.createdBy, cell: (release) => release.createdBy, sortValue: (release) => release.createdBy },
              { key: 'note', header: t.note, cell: (release) => release.note ?? text.common.none },
              {
                key: 'actions',
                header: t.actions,
                cell: (release) => (
                  <div className="row-actions">
                    <button
                      type="button"
                      disabled={action.busy}
                      onClick={() =>
                        void action
                          .run(
                            (session) => session.client.call(CONTROL_API.releases.preview, { params: { id: release.id }, body: {} }),
                            // The link's own paragraph says it, with its expiry: said once, not also as the outcome (issue 49).
                            () => '',
                          )
                          .then((answer) => answer && setPreview({ release: release.id, ...answer }))
                      }
                    >
                      {fill(t.preview, { release: release.id })}
                    </button>
                    {release.state !== 'active' && release.state !== 'broken' && (
                      <ConfirmButton
                        label={fill(t.activate, { release: release.id })}
                        question={fill(t.activateConfirm, { section: name, release: release.id, build: release.buildId })}
                        disabled={action.busy}
                        onConfirm={() =>
                          void action.run(
                            (session) => session.client.call(CONTROL_API.sections.activate, { params: { section }, body: { release: release.id } }),
                            () => fill(t.activated, { release: release.id }),
                          )
                        }
                      />
                    )}
                  </div>
                ),
              },
            ]}
          />
        )}
      </section>
      <section aria-labelledby="publish-heading">
        <h2 id="publish-heading">{t.publishHeading}</h2>
        <form onSubmit={(event) => void publish(event)} className="stacked">
          <label htmlFor="manifest-url">{t.manifestUrl}</label>
          <input id="manifest-url" type="url" required value={manifestUrl} onChange={(event) => setManifestUrl(event.target.value)} />
          <label htmlFor="publish-note">{t.publishNote}</label>
          <input id="publish-note" type="text" maxLength={1000} value={note} onChange={(event) => setNote(event.target.value)} />
          <button type="submit" className="primary" disabled={action.busy}>
            {t.publish}
          </button>
        </form>
        {/* The checks that ran, passed or failed; those an earlier failure kept from running are named apart, never as failed. */}
        {checks.some((check) => !notRun(check)) && (
          <ul className="checks">
            {checks
              .filter((check) => !notRun(check))
              .map((check) => (
                <li key={check.name} className={check.ok ? 'ok' : 'error'}>
                  {`${check.name}: ${check.ok ? t.checkPassed : t.checkFailed}. ${check.detail}`}
                </li>
              ))}
          </ul>
        )}
        {checks.some(notRun) && (
          <p className="hint">
            {fill(text.teams.checksNotRun, {
              names: checks
                .filter(notRun)
                .map((check) => check.name)
                .join(', '),
            })}
          </p>
        )}
      </section>
      <CanaryPanel section={section} shown={shown} releases={releases.data ?? []} onChanged={changed} />
      {/* Keyed by the section alone: another section's page starts with its own draft and no outcome of this one's. */}
      {entry && <SectionSettings key={entry.id} section={entry} />}
    </>
  );
}
