import vm from 'node:vm';
import { type SectionModule } from '@portico/shared-config/contract';
import { EXPOSED_SECTION } from '@portico/contract/sections';
import { NodeSectionError } from './node-section-error';

/**
 * The modules the caller shares with a section, by the names the section's
 * build declares (`react`, `react/jsx-runtime`, `react-dom`,
 * `@portico/shared-config`), each with its version: the section's build
 * refuses a version outside its range (`strictVersion`).
 */
export type SharedModules = Readonly<Record<string, { version: string; module: unknown }>>;

interface Container {
  init(shareScope: unknown): unknown;
  get(request: string): unknown;
}

/** Module evaluation is synchronous and quick; a loop at the top of a module is cut off. */
const EVALUATE_TIMEOUT_MS = 1000;

/**
 * A webpack share scope holding the caller's modules: `get` hands back the
 * module's factory at once, because the node build consumes its shared
 * modules when it starts (it is one chunk).
 */
function shareScopeOf(shared: SharedModules): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(shared).map(([name, { version, module }]) => [
      name,
      { [version]: { get: () => () => module, from: 'portico-render', eager: true, loaded: 1 } },
    ]),
  );
}

function isContainer(value: unknown): value is Container {
  const candidate = value as Partial<Container> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.init === 'function' && typeof candidate.get === 'function';
}

function isSectionModule(value: unknown): value is SectionModule {
  const Section = (value as Partial<SectionModule> | null)?.Section;
  return typeof Section === 'function' || (typeof Section === 'object' && Section !== null);
}

/**
 * Runs a node build (a `commonjs-module` container) in a context of its own:
 * its globals are the language's alone, plus `console` (the caller's, or
 * one it gives: a section worker gives one that writes plain lines). No `require`,
 * `process`, `Buffer` or timers: the build needs none, so a section cannot
 * reach the disk or the environment through them, and strings are never
 * compiled to code there. This is not a sandbox (the shared modules are the
 * caller's own objects); the process the caller runs it in is the boundary.
 */
export async function evaluateSection(code: string, url: string, shared: SharedModules, sectionConsole: Partial<Console> = console): Promise<SectionModule> {
  const context = vm.createContext({ console: sectionConsole }, { name: url, codeGeneration: { strings: false, wasm: false } });
  // One line of wrapper before the code, so line numbers in stack traces are the file's.
  const source = `(() => { const module = { exports: {} }; (function (module, exports) {${code}\n}).call(module.exports, module, module.exports); return module.exports; })()`;
  let container: unknown;
  try {
    container = new vm.Script(source, { filename: url }).runInContext(context, { timeout: EVALUATE_TIMEOUT_MS });
  } catch (error) {
    throw new NodeSectionError('container', `${url} threw while it was evaluated: ${(error as Error).message}`, { cause: error });
  }
  if (!isContainer(container)) throw new NodeSectionError('container', `${url} is not a federation container (no init and get)`);

  let exposed: unknown;
  try {
    await container.init(shareScopeOf(shared));
    const factory = (await container.get(EXPOSED_SECTION)) as () => unknown;
    exposed = factory();
  } catch (error) {
    throw new NodeSectionError('container', `${url} could not give ${EXPOSED_SECTION}: ${(error as Error).message}`, { cause: error });
  }
  if (!isSectionModule(exposed)) throw new NodeSectionError('container', `${url}: ${EXPOSED_SECTION} exports no Section component`);
  return exposed;
}
