import { fill, useText, type SectionModule } from '@portico/shared-config';
import { remoteNameOf, type SectionId } from '@portico/contract/sections';
import { Suspense, use, useEffect, useState } from 'react';
import { noteArrival } from '../health/visit-outcomes';
import { classifyFailure } from './classify-failure';
import type { SectionLoad } from './load-section';
import { reportFailure, type RemoteFailure } from './report-failure';
import { SectionAlert } from './section-alert';
import { SectionBoundary } from './section-boundary';
import { SectionLoadError } from './section-load-error';
import { useRemoteUrls } from './use-remote-urls';

export interface RemoteSectionProps {
  section: SectionId;
  /** Its tab's label on this page: what its loading line and its alert call it. */
  label: string;
  /** The load the page started at boot, and how to start another (Try again). */
  load: SectionLoad;
  /** It hydrates the server's HTML (its arrival is `ssr`), rather than rendering afresh (`csr`). */
  hydrating?: boolean;
}

interface LoadedSectionProps {
  loading: Promise<SectionModule>;
  section: SectionId;
  arrival: 'ssr' | 'csr';
}

function LoadedSection({ loading, section, arrival }: LoadedSectionProps) {
  const { Section } = use(loading);
  // Committed with the section, so only once it rendered: its arrival, for
  // the visit report. Here rather than in a sibling: a sibling would change
  // the tree's shape, hence the ids useId gives, and the server's HTML would
  // no longer match.
  useEffect(() => noteArrival(section, arrival), [section, arrival]);
  return <Section />;
}

/**
 * One section, loaded at run time from its remote. Whatever goes wrong (the
 * remote is missing, slow, broken, incompatible, or throws while rendering)
 * stays inside this component: it shows an alert with Try again, and the rest
 * of the page keeps working.
 */
export function RemoteSection({ section, label: name, load, hydrating = false }: RemoteSectionProps) {
  const text = useText();
  const manifestUrl = useRemoteUrls().remotes[section];
  const [attempt, setAttempt] = useState(0);
  const [loading, setLoading] = useState(() => load.first);

  const failureOf = (error: unknown): RemoteFailure =>
    error instanceof SectionLoadError
      ? error.failure
      : { section, remote: remoteNameOf(section), ...classifyFailure(error, { stage: 'render', manifestUrl: manifestUrl ?? '(none)' }) };

  const retry = () => {
    setLoading(load.again());
    setAttempt((n) => n + 1);
  };

  return (
    <SectionBoundary
      key={attempt}
      // A load failure was reported by the loader; only a render failure is new here.
      onError={(error) => !(error instanceof SectionLoadError) && reportFailure(failureOf(error))}
      fallback={(error) => <SectionAlert name={name} failure={failureOf(error)} onRetry={retry} />}
    >
      <Suspense
        fallback={
          <p className="section-loading" aria-busy="true">
            {fill(text.sections.loading, { section: name })}
          </p>
        }
      >
        {/* A retry renders afresh: only the first attempt can be the server's HTML. */}
        <LoadedSection loading={loading} section={section} arrival={hydrating && attempt === 0 ? 'ssr' : 'csr'} />
      </Suspense>
    </SectionBoundary>
  );
}
