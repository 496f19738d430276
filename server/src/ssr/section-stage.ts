import type { Logger } from '@portico/platform/logging';
import { LANGUAGES, type Language } from '@portico/contract/languages';
import { SECTION_IDS, type BuiltInSectionId, type SectionId } from '@portico/contract/sections';
import type { FromSectionWorker, NodeBuild, ToSectionWorker } from '@portico/node-sections/protocol';
import type { Site } from '../site-context';
import { FAILED_RENDER_MS, SECTION_CPU_BUDGET, SECTION_LOAD_KILL_MS, SECTION_MESSAGE_BYTES, SECTION_RENDER_KILL_MS, SSR_LIMITS } from './render-limits';
import type { Sandbox } from './sandbox';
import { CheckedHtml, partOf, type CheckedPart } from './checked-html';
import { SingleFlight } from './single-flight';
import { Supervisor } from './supervisor';
import { answerOf, startWorker } from './worker-pool';
import type { CpuBudget, WorkerProcess } from './worker-process';
import { LRUCache } from 'lru-cache';

type SectionWorker = WorkerProcess<ToSectionWorker, FromSectionWorker>;

/** A section's HTML as its worker answered it, checked (CheckedPart): or the reason it is left to the browser. */
export type SectionResult = CheckedPart | { failed: string; at: number };

/** A section's workers as measurements and tests see them. */
export interface SectionWorkerState {
  pid: number | undefined;
  generation: number | undefined;
  /** Its plan is set aside after repeated deaths. */
  quarantined: boolean;
  /** The builds (node-build hashes) the live worker runs, and the ones its plan wants. */
  builds: string[];
  wanted: string[];
}

/**
 * A build to keep warm in a worker of its own: a previewed one, with the
 * config of the visit that opened it, or a canary's candidate, with its
 * cohorts' configs.
 */
export interface ApartPlan {
  kind: 'preview worker' | 'canary worker';
  section: SectionId;
  build: NodeBuild;
  sites: Site[];
}

/**
 * What the server sees of a section's build itself: a render failing, its
 * workers set aside after repeated deaths, and running again after that.
 * `pins` are the manifest pins (config.json's remoteIntegrity) that name the
 * builds: how a release store knows the release.
 */
export interface SectionSignal {
  section: SectionId;
  builds: string[];
  pins: string[];
  kind: 'render-failed' | 'set-aside' | 'running-again';
  detail: string;
}

export interface SectionStageOptions {
  /** A section's worker died (or could not start), counted for the metrics. */
  onWorkerDeath?: () => void;
  heapMb: number;
  /** Off: every page asks the workers again (PORTICO_SSR_CACHE=0). */
  caching: boolean;
  /** A render under way for longer than a page's budget is not waited for again. */
  budgetMs: number;
  /** The configs a new worker warms up with. */
  sites: () => Promise<Site[]>;
  /** Each worker's CPU budget (SECTION_CPU_BUDGET), for tests: a smaller one. */
  cpuBudget?: CpuBudget;
  /** Another worker answers for `section` from now on: the pages made with the one before are not served again (the other sections' are). */
  onSwitch: (section: SectionId) => void;
  /** What the workers show of a section's builds (SectionSignal), for whoever must know beyond the log (the release store). */
  onSignal?: (signal: SectionSignal) => void;
  log: Logger;
  /** The log, each line once for a while: a failing section would say the same at every page. */
  report: (line: string) => void;
}

const sectionKey = (section: SectionId, build: string, site: Site, language: Language) => `${section} ${build} ${site.hash} ${language}`;
const previewKey = (section: SectionId, build: string) => `${section} ${build}`;
/** Builds whose pins are kept for the signals: those config.json and the releases name now, and many more across changes. */
const PINNED_BUILDS_KEPT = 256;

/**
 * The stage that gets each section's HTML: a worker per section, running
 * its team's node builds in the sandbox, supervised against the plan the
 * planner gives it (worker-plans.ts); a worker of its own per previewed
 * build; every answer checked (section-html.ts) before a page may take it.
 */
export class SectionStage {
  private sandbox: Sandbox | undefined;
  /** Each section's own worker, made when the section is first wanted: an added section gets one the same way. */
  private readonly supervisors = new Map<SectionId, Supervisor<SectionWorker>>();
  /**
   * A previewed release's build, or a canary's candidate, by section and
   * build: neither ever restarts the live section's worker, and a candidate
   * that loops or dies is set aside alone (its deaths are its own, not the
   * active release's).
   */
  private readonly previews = new Map<string, Supervisor<SectionWorker>>();
  /** Per section and build: the manifest pins that name it, for the signals (config.json's builds, bounded: the least recently named go first). */
  private readonly pins = new LRUCache<string, Set<string>>({ max: PINNED_BUILDS_KEPT });
  /** The builds a supervisor set aside, by section: told to run again once a worker runs them. */
  private readonly setAside = new Set<string>();
  /** Per worker: the builds it has loaded, each with the reason it refused it, if it did. */
  private readonly loaded = new WeakMap<SectionWorker, Map<string, string | undefined>>();
  private readonly results: SingleFlight<SectionResult>;
  private readonly html = new CheckedHtml();
  /** Which worker answered each result: a worker that dies of its own doing takes its answers with it. */
  private readonly answeredBy = new WeakMap<SectionResult, SectionWorker>();

  constructor(private readonly options: SectionStageOptions) {
    this.results = new SingleFlight<SectionResult>({
      maxBytes: SSR_LIMITS.sectionCacheBytes,
      bytesOf: (result) => ('html' in result ? 2 * result.html.length + (result.formTexts ? 2 * JSON.stringify(result.formTexts).length : 0) : 256),
      keep: options.caching,
    });
    for (const id of SECTION_IDS) this.supervisorOf(id);
  }

  private supervisorOf(section: SectionId): Supervisor<SectionWorker> {
    const supervisor = this.supervisors.get(section) ?? this.supervise(section, 'worker');
    this.supervisors.set(section, supervisor);
    return supervisor;
  }

  /** Section code runs in `sandbox` from now on; without one, no section worker starts. */
  useSandbox(sandbox: Sandbox): void {
    this.sandbox = sandbox;
  }

  get bytes(): number {
    return this.results.bytes;
  }

  /** What `section`'s worker should run from now on (none: no worker). */
  want(section: SectionId, builds: readonly NodeBuild[]): void {
    const list = [...builds];
    const key = list
      .map((build) => build.key)
      .sort()
      .join(' ');
    this.supervisorOf(section).want(list.length === 0 ? undefined : { key, prepare: (worker) => this.prepare(section, list, worker) });
  }

  /** `pin` (a manifest's, in config.json) names `build` of `section`: a signal about the build names it. */
  notePin(section: SectionId, build: string, pin: string | undefined): void {
    if (pin === undefined) return;
    const key = previewKey(section, build);
    let pins = this.pins.get(key);
    if (!pins) this.pins.set(key, (pins = new Set()));
    pins.add(pin);
  }

  /**
   * The builds to keep warm apart (previews, canaries' candidates): each one
   * its section's plan does not run gets a worker of its own, warmed with
   * its configs; the workers of builds no longer listed are closed.
   */
  wantApart(plans: readonly ApartPlan[]): void {
    const previewing = new Set<string>();
    for (const { kind, section, build, sites } of plans) {
      if (this.supervisors.get(section)?.planKey?.split(' ').includes(build.key)) continue;
      const key = previewKey(section, build.key);
      if (previewing.has(key)) continue;
      previewing.add(key);
      let supervisor = this.previews.get(key);
      if (!supervisor) {
        supervisor = this.supervise(section, kind);
        this.previews.set(key, supervisor);
      }
      supervisor.want({ key: build.key, prepare: (worker) => this.prepare(section, [build], worker, sites) });
    }
    for (const [key, supervisor] of this.previews) {
      if (previewing.has(key)) continue;
      this.previews.delete(key);
      void supervisor.close();
    }
  }

  /** The builds some plan names (the rest need not be kept). */
  plannedBuilds(): Set<string> {
    const plans = [...this.supervisors.values(), ...this.previews.values()];
    return new Set(plans.flatMap((supervisor) => supervisor.planKey?.split(' ') ?? []));
  }

  /**
   * The section's HTML for this page from `build`, or why it is left to the
   * browser (`failure` starts the log line); undefined when it is not ready
   * by `deadline`. A failure is kept for FAILED_RENDER_MS, not asked again
   * at every page.
   */
  async get(
    section: SectionId,
    build: string,
    site: Site,
    language: Language,
    deadline: number,
    failure = `the ${section} section is rendered in the browser`,
  ): Promise<SectionResult | undefined> {
    const key = sectionKey(section, build, site, language);
    const cached = this.results.cached(key);
    if (cached && ('html' in cached || Date.now() - cached.at < FAILED_RENDER_MS)) return cached;
    const worker = this.workerFor(section, build);
    if (!worker) return undefined;
    const refusal = this.loaded.get(worker)?.get(build);
    if (refusal !== undefined) return { failed: refusal, at: Date.now() };
    const render = async () => {
      const result = await this.render(worker, section, build, site, language);
      if (result && 'failed' in result) {
        this.options.report(`${failure}: ${result.failed}`);
        this.signal(section, [build], 'render-failed', result.failed, site.config.remoteIntegrity?.[section]);
      }
      return result;
    };
    return this.results.get(key, render, deadline, this.options.budgetMs);
  }

  /**
   * A publish's render check: `build` loaded by a one-off worker in the
   * section sandbox and rendered in each language with `site`. Each problem
   * in words; none means it renders.
   */
  async check(section: SectionId, build: NodeBuild, site: Site): Promise<string[]> {
    const worker = this.newWorker(section, `${section} publish check`);
    if (!worker) return ['not run: section code does not run on this server'];
    try {
      if (!(await worker.ready)) return ['its worker did not start'];
      const refused = await this.load(worker, section, [build]);
      if (!refused) return [`its node build was not evaluated within ${SECTION_LOAD_KILL_MS / 1000} s`];
      const [refusal] = refused.values();
      if (refusal !== undefined) return [`its node build failed to load: ${refusal}`];
      const problems: string[] = [];
      for (const language of LANGUAGES) {
        const result = await this.render(worker, section, build.key, site, language);
        if (result === undefined) problems.push(`rendering it in "${language}" took longer than ${SECTION_RENDER_KILL_MS / 1000} s`);
        else if ('failed' in result) problems.push(`rendering it in "${language}": ${result.failed}`);
        if (!worker.alive) break;
      }
      return problems;
    } finally {
      worker.kill('the publish check is done');
    }
  }

  /**
   * What the server's start waits for: each section's worker running its
   * plan, or dead once, and at most `withinMs`; whatever a section's code
   * does at its start, it holds the port no longer.
   */
  async whenStarted(withinMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)));
    await Promise.race([Promise.all([...this.supervisors.values()].map((supervisor) => supervisor.whenSettledOrFailed())), bound]);
    clearTimeout(timer);
  }

  /** Resolves once each section's worker, and each worker apart, runs its plan (or has none, or it is set aside). */
  async whenSettled(): Promise<void> {
    await Promise.all([
      ...[...this.supervisors.values()].map((supervisor) => supervisor.whenSettled()),
      ...[...this.previews.values()].map((supervisor) => supervisor.whenSettled()),
    ]);
  }

  /** Each section's worker: the built-in ones always (made at the start), an added one once wanted. */
  state(): Record<BuiltInSectionId, SectionWorkerState> & Partial<Record<SectionId, SectionWorkerState>> {
    const of = (supervisor: Supervisor<SectionWorker>): SectionWorkerState => ({
      pid: supervisor.worker?.pid,
      generation: supervisor.generation,
      quarantined: supervisor.quarantinedNow,
      builds: supervisor.liveKey?.split(' ') ?? [],
      wanted: supervisor.planKey?.split(' ') ?? [],
    });
    return Object.fromEntries([...this.supervisors].map(([id, supervisor]) => [id, of(supervisor)])) as Record<BuiltInSectionId, SectionWorkerState>;
  }

  async close(): Promise<void> {
    await Promise.all([...this.supervisors.values(), ...this.previews.values()].map((supervisor) => supervisor.close()));
    await this.html.close();
  }

  private newWorker(section: SectionId, name: string): SectionWorker | undefined {
    if (!this.sandbox) return undefined;
    const launch = this.sandbox.launch(this.options.heapMb);
    const worker = startWorker<ToSectionWorker, FromSectionWorker>(
      name,
      launch,
      SECTION_MESSAGE_BYTES,
      this.options.log,
      this.options.cpuBudget ?? SECTION_CPU_BUDGET,
    );
    void worker.exited.then(() => this.forgetAnswers(section, worker));
    return worker;
  }

  /**
   * A worker killed for what it did (its output, its CPU, a deadline) or
   * dead by itself: what it answered before is dropped, and the pages made
   * with it, so none of it is served again (its section is rendered anew by
   * the next worker, or in the browser while there is none). A worker its
   * supervisor replaced keeps its answers: they were sound.
   */
  private forgetAnswers(section: SectionId, worker: SectionWorker): void {
    if (!worker.faulted) return;
    if (this.results.forgetWhere((result) => this.answeredBy.get(result) === worker)) this.options.onSwitch(section);
  }

  private supervise(section: SectionId, kind: 'worker' | ApartPlan['kind']): Supervisor<SectionWorker> {
    const supervisor: Supervisor<SectionWorker> = new Supervisor<SectionWorker>({
      name: `the ${section} section's ${kind}`,
      start: () => this.newWorker(section, `${section} section ${kind}`),
      log: this.options.log,
      onDeath: this.options.onWorkerDeath,
      onLive: (worker) => {
        if (!worker) return;
        this.options.onSwitch(section);
        const again = (supervisor.liveKey?.split(' ') ?? []).filter((build) => this.setAside.delete(previewKey(section, build)));
        if (again.length > 0) this.signal(section, again, 'running-again', `the ${section} section's ${kind} runs it again`);
      },
      onSetAside: (key, reason) => {
        const builds = key.split(' ');
        for (const build of builds) this.setAside.add(previewKey(section, build));
        this.signal(section, builds, 'set-aside', `the ${section} section's ${kind}: ${reason}`);
      },
    });
    return supervisor;
  }

  /** Tells a signal about `builds` of `section`, named by `pin` or by the pins noted for them. */
  private signal(section: SectionId, builds: string[], kind: SectionSignal['kind'], detail: string, pin?: string): void {
    const pins = pin === undefined ? builds.flatMap((build) => [...(this.pins.get(previewKey(section, build)) ?? [])]) : [pin];
    this.options.onSignal?.({ section, builds, pins, kind, detail });
  }

  /** The worker that has loaded `build` of `section`: the live one, or the build's preview worker. */
  private workerFor(section: SectionId, build: string): SectionWorker | undefined {
    const live = this.supervisors.get(section)?.worker;
    const worker = live && this.loaded.get(live)?.has(build) ? live : (this.previews.get(previewKey(section, build))?.worker ?? live);
    return worker && this.loaded.get(worker)?.has(build) ? worker : undefined;
  }

  /** Has `worker` evaluate `builds`: the reason for each it refused; undefined when it did not answer as asked. */
  private async load(worker: SectionWorker, section: SectionId, builds: NodeBuild[]): Promise<Map<string, string> | undefined> {
    const asked = await worker.ask({ type: 'load', section, builds }, { answerWithinMs: SECTION_LOAD_KILL_MS, killAfterMs: SECTION_LOAD_KILL_MS });
    const answer = answerOf(asked, 'loaded', 'the builds it loaded');
    if (!answer || 'failed' in answer || !Array.isArray(answer.ok.failed)) return undefined;
    return new Map(answer.ok.failed.map(({ key, reason }) => [String(key), String(reason).slice(0, 300)]));
  }

  /** Loads the plan's builds into a new worker, then renders each in every language with the current configs. */
  private async prepare(section: SectionId, wanted: NodeBuild[], worker: SectionWorker, sites?: readonly Site[]): Promise<boolean> {
    const refused = await this.load(worker, section, wanted);
    if (!refused) return false;
    for (const [key, reason] of refused) {
      this.options.log.warn(`the ${section} section's node build ${key.slice(0, 19)}… is not rendered on the server: ${reason}`);
      this.signal(section, [key], 'render-failed', `its node build failed to load: ${reason}`);
    }
    this.loaded.set(worker, new Map(wanted.map(({ key }) => [key, refused.get(key)])));
    for (const site of sites ?? (await this.options.sites())) {
      for (const build of wanted.filter(({ key }) => !refused.has(key))) {
        for (const language of LANGUAGES) {
          const result = await this.render(worker, section, build.key, site, language);
          if (!worker.alive) return false;
          if (result && 'failed' in result) {
            // In the same words as a page's render would log it (once: `report` says each line once): pages take this result for a while.
            this.options.report(`the ${section} section is rendered in the browser: ${result.failed}`);
            this.signal(section, [build.key], 'render-failed', result.failed, site.config.remoteIntegrity?.[section]);
          }
          if (result) this.results.keep(sectionKey(section, build.key, site, language), result);
        }
      }
    }
    return worker.alive;
  }

  /** One render, its HTML checked before any page may take it. */
  private async render(worker: SectionWorker, section: SectionId, build: string, site: Site, language: Language): Promise<SectionResult | undefined> {
    const asked = await worker.ask(
      { type: 'render', request: { build, config: site.config, problems: site.problems, language } },
      { answerWithinMs: SECTION_RENDER_KILL_MS, killAfterMs: SECTION_RENDER_KILL_MS },
    );
    const answer = answerOf(asked, 'html', 'HTML');
    if (answer === undefined) return undefined;
    const result = await this.resultOf(answer, section);
    // Killed for its conduct while its HTML was being checked: forgetAnswers ran before this result existed, so it is not kept.
    if (worker.faulted) return undefined;
    this.answeredBy.set(result, worker);
    return result;
  }

  /** A worker's answer to a render, its HTML checked. */
  private async resultOf(answer: { ok: { html: string } } | { failed: string }, section: SectionId): Promise<SectionResult> {
    if ('failed' in answer) return { failed: answer.failed, at: Date.now() };
    const checked = await this.html.check(section, answer.ok.html);
    if (!checked.ok) return { failed: `its HTML was refused: ${checked.reason}`, at: Date.now() };
    return partOf(checked);
  }
}
