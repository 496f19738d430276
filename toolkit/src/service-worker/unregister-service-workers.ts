/** The part of ServiceWorkerContainer this needs. */
export type ServiceWorkerRegistrations = Pick<ServiceWorkerContainer, 'getRegistrations'>;

function pageServiceWorkers(): ServiceWorkerRegistrations | undefined {
  return globalThis.navigator?.serviceWorker;
}

/**
 * Registers no service worker and removes any that an older version of the
 * site left behind (specification, point 4: registration is disabled). The
 * site has nothing to do offline, and a stale worker answering from its cache
 * would pin the page to old remoteEntry and mf-manifest files, mixing
 * versions of the host and its remotes.
 *
 * Every failure is ignored, as the specification says (point 8): no
 * service-worker support, a refused getRegistrations (private windows,
 * sandboxed frames) or an unregister that rejects. Resolves to how many were
 * removed.
 */
export async function unregisterServiceWorkers(container = pageServiceWorkers()): Promise<number> {
  if (!container) return 0;
  let registrations: readonly ServiceWorkerRegistration[];
  try {
    registrations = await container.getRegistrations();
  } catch {
    return 0;
  }
  const results = await Promise.allSettled(registrations.map((registration) => registration.unregister()));
  return results.filter((result) => result.status === 'fulfilled' && result.value).length;
}
