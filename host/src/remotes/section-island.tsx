import { PorticoIslandProvider, usePortico, type PorticoContextValue } from '@portico/shared-config';
import { type SectionId } from '@portico/contract/sections';
import { memo, startTransition, StrictMode, useEffect, useEffectEvent, useRef, useState, type ReactNode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { ISLAND_ATTRIBUTE, islandIdPrefix, islandMarkup, type IslandStart } from './island-contract';
import type { SectionLoad } from './load-section';
import { RemoteSection } from './remote-section';
import { RemoteUrlsContext } from './remote-urls-context';
import type { ResolvedRemotes } from '@portico/contract/override';
import { logCaughtError } from './section-boundary';
import { noteFailure } from '../health/visit-outcomes';
import { useRemoteUrls } from './use-remote-urls';

/**
 * A hydration mismatch, in the shell or in a section: React then renders that
 * part afresh in the browser, so the page still works, but the server and
 * the browser disagreed, which is a fault to see on the console.
 */
function logRecoverableError(error: unknown): void {
  console.error(error);
}

interface IslandTreeProps {
  portico: PorticoContextValue;
  remotes: ResolvedRemotes;
  section: SectionId;
  label: string;
  load: SectionLoad;
  hydrating: boolean;
}

function IslandTree({ portico, remotes, section, label, load, hydrating }: IslandTreeProps) {
  return (
    <StrictMode>
      <PorticoIslandProvider value={portico}>
        <RemoteUrlsContext value={remotes}>
          <RemoteSection section={section} label={label} load={load} hydrating={hydrating} />
        </RemoteUrlsContext>
      </PorticoIslandProvider>
    </StrictMode>
  );
}

/**
 * The element a section's island root lives in, inside its container
 * (`islandMarkup`): its last element, as the server may link the section's
 * stylesheets before it.
 */
function islandRootIn(container: Element): Element {
  return container.lastElementChild ?? container.appendChild(document.createElement('div'));
}

/** A section's React root: hydrating the server's HTML in `element`, or rendering the section afresh there. */
function mountIsland(element: Element, section: SectionId, tree: ReactNode, hydrate: boolean): Root {
  const options = {
    identifierPrefix: islandIdPrefix(section),
    onCaughtError: logCaughtError,
    // A mismatch in this section's HTML: the visit report says so.
    onRecoverableError: (error: unknown) => {
      logRecoverableError(error);
      noteFailure(section, 'hydration');
    },
  };
  if (hydrate) return hydrateRoot(element, tree, options);
  const root = createRoot(element, options);
  root.render(tree);
  return root;
}

export interface StandaloneIslandProps {
  portico: PorticoContextValue;
  remotes: ResolvedRemotes;
  section: SectionId;
  /** Its tab's label on this page (the page data's). */
  label: string;
  load: SectionLoad;
  /** The server rendered it: hydrate that HTML; otherwise render the section in its container. */
  hydrate: boolean;
}

/**
 * A section's island on a server-rendered page, whose shell is never
 * hydrated (its page script gives it its behaviour): the island is the only
 * React on the page that concerns it, started when the page script asks.
 */
export function startIsland(container: Element, { portico, remotes, section, label, load, hydrate }: StandaloneIslandProps): void {
  mountIsland(
    islandRootIn(container),
    section,
    <IslandTree portico={portico} remotes={remotes} section={section} label={label} load={load} hydrating={hydrate} />,
    hydrate,
  );
}

/**
 * The roots by container: an effect's clean-up defers the unmount, so a
 * remount of the same container right after (React's development checks
 * mount every effect twice) takes the root back instead of starting a second
 * one on it.
 */
const roots = new WeakMap<Element, { root: Root; unmount?: ReturnType<typeof setTimeout> }>();

export interface SectionIslandProps {
  section: SectionId;
  label: string;
  load: SectionLoad;
  start: IslandStart;
}

/**
 * A section as a React root of its own inside the shell (an island). On the
 * server, the shell worker renders this container around a slot the front
 * server fills with the section worker's HTML (that team's code alone, in a
 * sandbox); the shell's own HTML never holds a section's markup, and the
 * browser starts that island alone (`startIsland`). On the client-rendered
 * page, this component renders the section in its container. The
 * container's markup is given to React as `dangerouslySetInnerHTML`, kept as
 * one object, so the shell never touches it; the island's root is the one
 * element inside it (`islandMarkup`).
 */
function SectionIslandUnmemoized({ section, label, load, start }: SectionIslandProps) {
  const portico = usePortico();
  const remotes = useRemoteUrls();
  const container = useRef<HTMLDivElement>(null);
  const [inner] = useState(() => ({ __html: start.html === '' ? islandMarkup('') : start.html }));
  const [hydrate] = useState(() => start.hydrate);
  // The tree as of now, read by the effects (not a dependency of the one that creates the root).
  const currentTree = useEffectEvent(() => <IslandTree portico={portico} remotes={remotes} section={section} label={label} load={load} hydrating={hydrate} />);

  useEffect(() => {
    const element = islandRootIn(container.current!);
    let held = roots.get(element);
    if (held?.unmount) clearTimeout(held.unmount);
    if (!held) {
      held = { root: mountIsland(element, section, currentTree(), hydrate) };
      roots.set(element, held);
    }
    const own = held;
    own.unmount = undefined;
    return () => {
      // Not during the shell's commit: React refuses to unmount a root while it renders.
      own.unmount = setTimeout(() => {
        roots.delete(element);
        own.root.unmount();
      }, 0);
    };
  }, [section, hydrate]);

  // The shell's language or remotes changed: the island follows, keeping its
  // content on screen while the section fetches texts in the new language.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const element = container.current?.lastElementChild;
    const held = element && roots.get(element);
    if (held) startTransition(() => held.root.render(currentTree()));
  }, [portico, remotes, load, label]);

  return <div ref={container} className="section-island" {...{ [ISLAND_ATTRIBUTE]: section }} dangerouslySetInnerHTML={inner} />;
}

/** Memoised: the shell's own re-renders reach an island only when what it shows changes. */
export const SectionIsland = memo(SectionIslandUnmemoized);
