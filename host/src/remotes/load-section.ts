import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { EXPOSED_SECTION, remoteNameOf, type SectionId, type SectionModule } from '@portico/shared-config';

/** A visitor waits no longer than this for a section, retries included. */
export const SECTION_DEADLINE_MS = 10_000;

export class SectionLoadError extends Error {
  constructor(
    readonly section: SectionId,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'SectionLoadError';
  }
}

function withDeadline<T>(work: Promise<T>, section: SectionId, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new SectionLoadError(section, `the ${section} section did not load within ${ms / 1000} s`)),
      ms,
    );
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/**
 * Registers the section's remote from its configured manifest URL and loads
 * the one module it exposes. `fresh` forgets any earlier attempt, so Try again
 * really fetches again.
 */
export async function loadSection(
  section: SectionId,
  manifestUrl: string | undefined,
  { fresh = false, deadlineMs = SECTION_DEADLINE_MS } = {},
): Promise<SectionModule> {
  if (!manifestUrl) {
    throw new SectionLoadError(section, `config.json gives no valid URL in remotes.${section}`);
  }
  const name = remoteNameOf(section);
  registerRemotes([{ name, entry: manifestUrl }], { force: fresh });
  const request = `${name}/${EXPOSED_SECTION.replace(/^\.\//, '')}`;
  const exposed = await withDeadline(loadRemote<Partial<SectionModule>>(request), section, deadlineMs);
  if (!exposed || typeof exposed.Section !== 'function') {
    throw new SectionLoadError(section, `${request} from ${manifestUrl} does not export a Section component`);
  }
  return exposed as SectionModule;
}
