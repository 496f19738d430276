import { fill, useText } from '@portico/shared-config';
import { useRemoteUrls } from './use-remote-urls';
import { labelIn, usePageSections } from '../shell/use-page-sections';

/**
 * Says, on the page, which sections a `?remote.<section>=URL` override
 * replaced. Deliberately not a live region: it is not news, and it must not
 * compete with the contact form's toasts.
 */
export function OverrideNotice() {
  const { overrides } = useRemoteUrls();
  const text = useText();
  const sections = usePageSections();
  if (overrides.length === 0) return null;
  return (
    <aside className="override-notice" aria-label={text.sections.overrideLabel}>
      {overrides.map(({ section, url }) => (
        <p key={section}>{fill(text.sections.override, { section: labelIn(sections, section), url })}</p>
      ))}
    </aside>
  );
}
