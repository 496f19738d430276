import type { SectionId } from '@portico/contract/sections';
import type { NodeBuild } from '@portico/node-sections/protocol';
import type { Site } from '../../site-context';
import type { ServedSites } from '../served-sites';
import type { SectionSources } from '../section-sources';
import type { ApartPlan, SectionStage } from '../section-stage';
import { WorkerPlanner } from '../worker-plans';

// The planner alone: which builds each section's worker is told to run as
// the served configs change. The sites, the manifests and the workers are
// stand-ins: a config names Contact's build by its manifest URL, and the
// build's key is that URL.

const siteNaming = (build: string): Site => ({ hash: build, body: '', config: { remotes: { contact: build } }, problems: [] }) as unknown as Site;

function planner() {
  /** What a visitor to the one known host gets: outside every canary first, then a canary's cohort, if one runs. */
  let served: Site[] = [siteNaming('first')];
  let upcoming: Site[] = [];
  const wanted: string[][] = [];
  const apart: ApartPlan[][] = [];
  const sites = {
    current: () => Promise.resolve([...served, ...upcoming]),
    planned: () => Promise.resolve({ all: [...served, ...upcoming], primary: new Set([served[0]!.hash, ...(upcoming[0] ? [upcoming[0].hash] : [])]) }),
    previews: [],
  } as unknown as ServedSites;
  const sources = {
    build: (url: string): Promise<NodeBuild> => Promise.resolve({ key: url, url, code: '' }),
    keepOnly: () => undefined,
  } as unknown as SectionSources;
  const sections = {
    want: (section: SectionId, builds: readonly NodeBuild[]) => {
      if (section === 'contact') wanted.push(builds.map((build) => build.key));
    },
    wantApart: (plans: ApartPlan[]) => apart.push(plans),
    notePin: () => undefined,
    plannedBuilds: () => new Set<string>(),
  } as unknown as SectionStage;
  const plans = new WorkerPlanner({ sites, sources, sections, watch: () => undefined, active: () => true });
  return {
    plans,
    /** What Contact's worker was last told to run. */
    contact: () => wanted.at(-1),
    /** How many plans were made. */
    planned: () => wanted.length,
    /** The builds last planned in workers of their own: kind and build. */
    apart: () => apart.at(-1)?.map((plan) => [plan.kind, plan.build.key]),
    serve: (...builds: string[]) => (served = builds.map(siteNaming)),
    expect: (build?: string) => (upcoming = build ? [siteNaming(build)] : []),
  };
}

test('an activation and a rollback served between two readings of the configs: the builds of neither warm-up stay in the plan', async () => {
  const { plans, contact, serve, expect: upcoming } = planner();
  await plans.readConfigs();
  expect(contact()).toEqual(['first']);

  // Activated: warmed with the upcoming config, then served.
  upcoming('second');
  await plans.replan();
  upcoming();
  serve('second');
  // Rolled back before the next reading: warmed, then served again.
  upcoming('first');
  await plans.replan();
  expect(contact()).toEqual(['second', 'first']);
  upcoming();
  serve('first');

  await plans.readConfigs();
  expect(contact()).toEqual(['first']);
  plans.close();
});

test('a reading that names what the last plan was made from plans nothing again', async () => {
  const { plans, planned } = planner();
  await plans.readConfigs();
  expect(planned()).toBe(1);
  await plans.readConfigs();
  expect(planned()).toBe(1);
  plans.close();
});

test("a canary's candidate build runs in a worker of its own; the section's worker runs what a visitor outside the canary gets", async () => {
  const { plans, contact, apart, serve } = planner();
  await plans.readConfigs();
  expect([contact(), apart()]).toEqual([['first'], []]);
  serve('first', 'candidate');
  await plans.readConfigs();
  expect([contact(), apart()]).toEqual([['first'], [['canary worker', 'candidate']]]);
  // The canary over: its worker goes with the plan that named it.
  serve('first');
  await plans.readConfigs();
  expect([contact(), apart()]).toEqual([['first'], []]);
  plans.close();
});
