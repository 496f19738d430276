import { useText } from '@portico/shared-config';
import type { SectionId } from '@portico/contract/sections';
import { usePageSections } from './use-page-sections';

export const tabId = (id: SectionId) => `tab-${id}`;

/**
 * The tabs of the page's sections, in their order, as markup: each tab a
 * link to its section's anchor, so the page works with JavaScript off (every
 * tab in the Tab order, jumping to its section). The first tab is selected
 * as rendered (the server never sees the hash); the page script
 * (page-script/shell-behaviour.ts) keeps the selection, the keys and the
 * roving Tab stop from then on, and app.css shows the hash's tab selected
 * from the first paint. A label is an integrator's plain text: React
 * escapes it, and `<bdi>` keeps its direction from turning the text around
 * it. The list scrolls sideways when the tabs outgrow the row
 * (app.css, "The tab list holds 8").
 */
export function SectionTabs() {
  const text = useText();
  const sections = usePageSections();
  return (
    <div role="tablist" aria-label={text.nav.label} className="section-tabs">
      {sections.map(({ id, label }, index) => (
        <a key={id} href={`#${id}`} role="tab" id={tabId(id)} aria-selected={index === 0} aria-controls={id} className="section-tab">
          <bdi>{label}</bdi>
        </a>
      ))}
    </div>
  );
}
