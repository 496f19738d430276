import { fill, usePortico } from '@portico/shared-config';
import { labelIn, usePageSections } from './use-page-sections';

/**
 * `2026-11-26T14:47:00.000Z` as `2026-11-26 14:47 UTC`: the same text on the
 * server and in any browser's time zone, so the hydrated notice matches.
 */
function utcMinute(iso: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso;
}

/**
 * Says, on the page, that this visit shows a release's preview rather than
 * the live site (the server sets `preview` in the config of a visit that
 * opened a signed preview link), or that the link opened nothing. Not a live
 * region, like the override notice: it is the page's state, not news.
 */
export function PreviewNotice() {
  const { config, text } = usePortico();
  const sections = usePageSections();
  const { preview, previewRefused } = config;
  // parseConfig keeps `preview` whole or not at all; the type allows parts.
  const shown =
    preview?.section && preview.release && preview.buildId && preview.version && preview.expiresAt ? { ...preview, section: preview.section } : undefined;
  if (!shown && !previewRefused) return null;
  return (
    <aside className="override-notice" aria-label={text.sections.previewLabel}>
      <p>
        {shown
          ? fill(text.sections.preview, {
              section: labelIn(sections, shown.section),
              release: shown.release!,
              build: shown.version === '1.0.0' ? shown.buildId! : `${shown.version}, ${shown.buildId}`,
              expires: utcMinute(shown.expiresAt!),
            })
          : previewRefused === 'expired'
            ? text.sections.previewExpired
            : text.sections.previewInvalid}
      </p>
    </aside>
  );
}
