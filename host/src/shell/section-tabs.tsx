import { useText } from '@portico/shared-config';
import { SECTION_IDS, type SectionId } from '@portico/contract/sections';

export const tabId = (id: SectionId) => `tab-${id}`;

/**
 * The tabs, as markup: each tab a link to its section's anchor, so the page
 * works with JavaScript off (every tab in the Tab order, jumping to its
 * section). Home is selected as rendered (the server never sees the hash);
 * the page script (page-script/shell-behaviour.ts) keeps the selection,
 * the keys and the roving Tab stop from then on, and app.css shows the
 * hash's tab selected from the first paint.
 */
export function SectionTabs() {
  const text = useText();
  return (
    <div role="tablist" aria-label={text.nav.label} className="section-tabs">
      {SECTION_IDS.map((id) => (
        <a key={id} href={`#${id}`} role="tab" id={tabId(id)} aria-selected={id === 'home'} aria-controls={id} className="section-tab">
          {text.nav.tabs[id]}
        </a>
      ))}
    </div>
  );
}
