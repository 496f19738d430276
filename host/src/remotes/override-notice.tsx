import { fill, sectionLabel, useText } from '@portico/shared-config';
import { useRemoteUrls } from './use-remote-urls';

/**
 * Says, on the page, which sections a `?remote.<section>=URL` override
 * replaced. Deliberately not a live region: it is not news, and it must not
 * compete with the contact form's toasts.
 */
export function OverrideNotice() {
  const { overrides } = useRemoteUrls();
  const text = useText();
  if (overrides.length === 0) return null;
  return (
    <aside className="override-notice" aria-label={text.sections.overrideLabel}>
      {overrides.map(({ section, url }) => (
        <p key={section}>{fill(text.sections.override, { section: sectionLabel(text, section), url })}</p>
      ))}
    </aside>
  );
}
