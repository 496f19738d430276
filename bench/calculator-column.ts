import path from 'node:path';
import { apiClient, CONTROL_API } from '@portico/control-contract';
import { eventually } from '@portico/testing/eventually';
import { serveUnderPath, type StaticServer } from '../tests/support/static-server';
import { REPO_ROOT } from './paths';

/**
 * The "+ calculator" column (issue 48, "Cost"): the example calculator
 * (`examples/remote-calculator`, built by `npm run build`) added at run time
 * as a fourth section after About, the way an integrator adds one (the
 * control API: add, publish, activate), on the federated SSR page with its
 * releases active. An island that hydrates when used: its cost before any
 * interaction should be +0 B of JavaScript.
 */
const CALCULATOR_DIST = path.join(REPO_ROOT, 'examples/remote-calculator/dist');

/** Serves the calculator's build on `port` (an origin of its own, as a team's static host). */
export const serveCalculator = (port: number): Promise<StaticServer> => serveUnderPath(CALCULATOR_DIST, '/', port);

/** Adds, publishes and activates the calculator on the server whose control API is on `controlPort`. */
export async function addCalculator(controlPort: number, token: string, manifestUrl: string): Promise<void> {
  const control = apiClient({ base: `http://127.0.0.1:${controlPort}`, token });
  await control.call(CONTROL_API.sections.add, {
    body: { id: 'calculator', labels: { en: 'Repayments', id: 'Cicilan' }, origins: [new URL(manifestUrl).origin], interactive: true, after: 'about' },
  });
  const published = await control.call(CONTROL_API.releases.publish, { body: { section: 'calculator', manifestUrl } });
  await control.call(CONTROL_API.sections.activate, { params: { section: 'calculator' }, body: { release: published.id } });
}

/** Until the page holds the calculator's server-rendered form: the column measures the page it is named after. */
export async function untilCalculatorRendered(url: string): Promise<void> {
  await eventually(
    async () => {
      const html = await (await fetch(url)).text();
      if (!html.includes('data-section-island="calculator"') || !html.includes('Loan amount'))
        throw new Error(`${url} does not hold the calculator's form yet`);
    },
    { what: 'the calculator server-rendered', withinMs: 60_000, everyMs: 500 },
  );
}
