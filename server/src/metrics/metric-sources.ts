import type { ContactService } from '@portico/messages';
import type { BeaconEndpoint } from '../beacon/beacon-endpoint';
import type { ControlPlane } from '../control-plane';
import type { RunningPortico } from '../portico-server';
import type { MetricSources } from './server-metrics';

/** The parts of a running server, each undefined until it has started. */
export interface ServerParts {
  running: () => RunningPortico | undefined;
  contact: () => Pick<ContactService, 'storedHere' | 'store' | 'database'> | undefined;
  control: () => Pick<ControlPlane, 'alerts' | 'store'> | undefined;
  beacon: () => Pick<BeaconEndpoint, 'outcomes'> | undefined;
}

/** Where each metric is read from, in `npm run serve` (main.ts) and in the tests that start the same parts. */
export function metricSourcesOf(parts: ServerParts): MetricSources {
  return {
    rendering: () => parts.running()?.renderWorker(),
    served: () => parts.running()?.releases(),
    reports: () => parts.beacon()?.outcomes(),
    messages: () => {
      const contact = parts.contact();
      return contact && { storedHere: () => contact.storedHere(), outbox: () => contact.store.outbox() };
    },
    alerts: () => parts.control()?.alerts,
    audit: () => parts.control()?.store.audit,
    database: () => parts.contact()?.database,
  };
}
