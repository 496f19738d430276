/**
 * How a section hydrates: part of the section contract. A section declares it
 * in its build (`createConfig({ hydration })`), its `mf-manifest.json`
 * carries it (`metaData.hydration`), and the front server writes it into the
 * page data, so the page knows before it loads any of the section's code
 * whether it ever needs that code at all.
 */
import type { SectionGrant } from './sections';

/**
 * What starts an interactive section's hydration (the first one that
 * happens):
 * - `load`: as soon as the page has painted;
 * - `idle`: when the browser is idle after load;
 * - `visible`: when the section is shown and scrolled near the viewport;
 * - `selected`: when its tab is selected, or a visit lands on its anchor;
 * - `interaction`: the first focus, input, pointer or submit inside it.
 */
const HYDRATION_TRIGGERS = ['load', 'idle', 'visible', 'selected', 'interaction'] as const;
export type HydrationTrigger = (typeof HYDRATION_TRIGGERS)[number];

/**
 * `static`: the server's HTML is final; the browser never loads the section's
 * code when the server rendered it (it still renders a section the server
 * could not). `interactive`: hydrated on the first of `when`.
 */
export type Hydration = { mode: 'static' } | { mode: 'interactive'; when: readonly HydrationTrigger[] };

/**
 * What a section that declares nothing gets: hydrated once the page has
 * painted, as every section was before the declaration existed, so a build
 * made before it keeps working.
 */
export const DEFAULT_HYDRATION: Hydration = { mode: 'interactive', when: ['load'] };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The declaration as a manifest or the page data carries it, checked: the
 * value, or why it is not one (a manifest is untrusted input). `undefined`
 * (nothing declared) is the default.
 */
export function readHydration(value: unknown): Hydration | { problem: string } {
  if (value === undefined) return DEFAULT_HYDRATION;
  if (!isRecord(value)) return { problem: 'hydration is not an object' };
  if (value.mode === 'static') return { mode: 'static' };
  if (value.mode !== 'interactive') return { problem: `hydration.mode is ${JSON.stringify(value.mode)}, not "static" or "interactive"` };
  const when = value.when;
  if (!Array.isArray(when) || when.length === 0) return { problem: 'hydration.when is not a list of triggers' };
  const unknown = when.find((trigger) => !(HYDRATION_TRIGGERS as readonly unknown[]).includes(trigger));
  if (unknown !== undefined) return { problem: `hydration.when has ${JSON.stringify(unknown)}, not one of ${HYDRATION_TRIGGERS.join(', ')}` };
  return { mode: 'interactive', when: [...new Set(when as HydrationTrigger[])] };
}

/**
 * Why a build's declaration goes beyond its section's grant, in words; or
 * undefined when it stays within (a publish refuses a build with one).
 */
export function grantProblem(section: string, hydration: Hydration, grant: SectionGrant): string | undefined {
  if (grant.interactive || hydration.mode === 'static') return undefined;
  return `the ${section} section is granted no script in the visitor's browser (static), but this build declares hydration ${JSON.stringify(hydration)}: build it with hydration { mode: 'static' }, or ask the integrator to grant the section script`;
}

/** What the page follows: the declaration held to the grant (a section granted no script is static whatever its build says). */
export function hydrationWithin(hydration: Hydration, grant: SectionGrant): Hydration {
  return grant.interactive ? hydration : { mode: 'static' };
}

/** Whether `hydration` starts on `trigger`. */
export function hydratesOn(hydration: Hydration, trigger: HydrationTrigger): boolean {
  return hydration.mode === 'interactive' && hydration.when.includes(trigger);
}

/**
 * On a control a section disables in its server HTML because, without
 * script, using it would lose what was typed (a native submit): the page's
 * script enables it as soon as it runs, since from then on it holds a submit
 * until the section has hydrated and then makes it again.
 */
export const ENABLED_BY_SCRIPT = 'data-enabled-by-script';
