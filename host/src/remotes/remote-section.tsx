import { fill, useConfig, useText, type SectionId, type SectionModule } from '@portico/shared-config';
import { Suspense, use, useState } from 'react';
import { loadSection } from './load-section';
import { SectionBoundary } from './section-boundary';

export interface RemoteSectionProps {
  section: SectionId;
}

function LoadedSection({ loading }: { loading: Promise<SectionModule> }) {
  const { Section } = use(loading);
  return <Section />;
}

/**
 * One section, loaded at run time from its remote. Whatever goes wrong (the
 * remote is missing, slow, broken, or throws while rendering) stays inside
 * this component: it shows an alert with Try again, and the rest of the page
 * keeps working.
 */
export function RemoteSection({ section }: RemoteSectionProps) {
  const text = useText();
  const manifestUrl = useConfig().remotes[section];
  const [attempt, setAttempt] = useState(0);
  const [loading, setLoading] = useState(() => loadSection(section, manifestUrl));
  const name = text.nav.tabs[section];

  const retry = () => {
    setLoading(loadSection(section, manifestUrl, { fresh: true }));
    setAttempt((n) => n + 1);
  };

  return (
    <SectionBoundary
      key={attempt}
      onError={(error) => console.error(`Portico: the ${section} section failed`, error)}
      fallback={() => (
        <div role="alert" className="section-error">
          <p>{fill(text.sections.failed, { section: name })}</p>
          <button type="button" className="button" onClick={retry}>
            {text.sections.tryAgain}
          </button>
        </div>
      )}
    >
      <Suspense
        fallback={
          <p className="section-loading" aria-busy="true">
            {fill(text.sections.loading, { section: name })}
          </p>
        }
      >
        <LoadedSection loading={loading} />
      </Suspense>
    </SectionBoundary>
  );
}
