import { SECTION_IDS, useText, type SectionId } from '@portico/shared-config';
import { useRef, type KeyboardEvent } from 'react';

export interface SectionTabsProps {
  active: SectionId;
  onSelect: (id: SectionId) => void;
}

export const tabId = (id: SectionId) => `tab-${id}`;

/**
 * The tabs pattern with manual activation: arrow keys, Home and End move the
 * focus, Enter or Space selects (selecting scrolls, so focus alone must not).
 */
export function SectionTabs({ active, onSelect }: SectionTabsProps) {
  const text = useText();
  const tabs = useRef<Partial<Record<SectionId, HTMLButtonElement | null>>>({});

  const moveFocus = (event: KeyboardEvent<HTMLButtonElement>, from: number) => {
    const last = SECTION_IDS.length - 1;
    const to = { ArrowRight: from + 1, ArrowLeft: from - 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    tabs.current[SECTION_IDS[(to + SECTION_IDS.length) % SECTION_IDS.length]!]?.focus();
  };

  return (
    <div role="tablist" aria-label={text.nav.label} className="section-tabs">
      {SECTION_IDS.map((id, index) => (
        <button
          key={id}
          ref={(element) => {
            tabs.current[id] = element;
          }}
          type="button"
          role="tab"
          id={tabId(id)}
          aria-selected={active === id}
          aria-controls={id}
          tabIndex={active === id ? 0 : -1}
          className="section-tab"
          onClick={() => onSelect(id)}
          onKeyDown={(event) => moveFocus(event, index)}
        >
          {text.nav.tabs[id]}
        </button>
      ))}
    </div>
  );
}
