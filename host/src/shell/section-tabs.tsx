import { useText } from '@portico/shared-config';
import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import { useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { useHydrated } from '@portico/shared-config/hydration';

export interface SectionTabsProps {
  active: SectionId;
  onSelect: (id: SectionId) => void;
}

export const tabId = (id: SectionId) => `tab-${id}`;

/**
 * The tabs pattern with manual activation: arrow keys, Home and End move the
 * focus, Enter or Space selects (selecting scrolls, so focus alone must not).
 * Each tab is a link to its section's anchor, so the server's HTML works
 * with JavaScript off: every tab is in the Tab order and jumps to its
 * section. Once hydrated, the links select in place and only the selected
 * tab is a Tab stop.
 */
export function SectionTabs({ active, onSelect }: SectionTabsProps) {
  const text = useText();
  const hydrated = useHydrated();
  const tabs = useRef<Partial<Record<SectionId, HTMLAnchorElement | null>>>({});

  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, from: number) => {
    // A link follows Enter by itself (as a click), but not Space.
    if (event.key === ' ') {
      event.preventDefault();
      onSelect(SECTION_IDS[from]!);
      return;
    }
    const last = SECTION_IDS.length - 1;
    const to = { ArrowRight: from + 1, ArrowLeft: from - 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    tabs.current[SECTION_IDS[(to + SECTION_IDS.length) % SECTION_IDS.length]!]?.focus();
  };

  const onClick = (event: MouseEvent<HTMLAnchorElement>, id: SectionId) => {
    // A modified click (new tab, new window) is the browser's.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onSelect(id);
  };

  return (
    <div role="tablist" aria-label={text.nav.label} className="section-tabs">
      {SECTION_IDS.map((id, index) => (
        <a
          key={id}
          ref={(element) => {
            tabs.current[id] = element;
          }}
          href={`#${id}`}
          role="tab"
          id={tabId(id)}
          aria-selected={active === id}
          aria-controls={id}
          tabIndex={!hydrated || active === id ? 0 : -1}
          className="section-tab"
          onClick={(event) => onClick(event, id)}
          onKeyDown={(event) => onKeyDown(event, index)}
        >
          {text.nav.tabs[id]}
        </a>
      ))}
    </div>
  );
}
