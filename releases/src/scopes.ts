import { isBuiltInSection, sectionIdProblem } from '@portico/contract/section-entries';
import type { SectionId } from '@portico/contract/sections';
import { LOCAL_ACTOR_PREFIX } from '@portico/platform/command-line';
import type { Actor, Scope } from './release';

/** The owner token's and PORTICO_CONTROL_TOKEN's scopes: `releases` covers every section. */
export const ALL_SCOPES: readonly Scope[] = ['releases', 'messages', 'metrics'];

/**
 * What holding a scope brings besides itself: an integrator (`releases`)
 * reads the server's metrics (`GET /metrics`), which say less than the
 * control API already shows it, so integrator and owner tokens made before
 * the `metrics` scope existed read them too. Nothing implies `messages`.
 */
const IMPLIED: Partial<Record<Scope, readonly Scope[]>> = { releases: ['metrics'] };

/** The actor name PORTICO_CONTROL_TOKEN acts as, in the audit log. */
export const ENVIRONMENT_ACTOR = 'environment';

/** The name of the token a fresh install writes to the data folder. */
export const OWNER_TOKEN_NAME = 'owner';

/** The actor of the server's own entries (the owner token written at first start). */
export const SERVER_ACTOR = 'server';

/** The actor of the background check's broken marks. */
export const BACKGROUND_CHECK_ACTOR = 'background-check';

/** The actor the canary judge's promotions and rollbacks are audited under. */
export const JUDGE_ACTOR = 'canary-judge';

/**
 * Every name the server writes in the audit log as an actor of its own
 * (the alert sender writes none: an alert reads "<action> by <actor>" of an
 * audit entry): no token may be named so in any spelling that reads alike
 * (foldedName), or an integrator could forge a "canary-judge rollback"
 * line. A new actor of the server's belongs here.
 */
export const SERVER_ACTORS: readonly string[] = [OWNER_TOKEN_NAME, ENVIRONMENT_ACTOR, SERVER_ACTOR, BACKGROUND_CHECK_ACTOR, JUDGE_ACTOR];

/** Compatibility forms as their plain letters (NFKD: full-width `ＯＷＮＥＲ` is `OWNER`), case folded, accents dropped. */
const plain = (name: string): string =>
  name
    .normalize('NFKD')
    .toLowerCase()
    // Lower case can add a combining mark (`İ`), taken apart and dropped with the rest.
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');

/**
 * How a name reads to someone scanning the audit log: plain letters, and
 * nothing but letters and digits (separators, punctuation, symbols and
 * invisible characters gone): `Canary_Judge`, `canary-judge-` and `own-er`
 * read as reserved actors.
 */
export const foldedName = (name: string): string => plain(name).replace(/[^\p{L}\p{N}]/gu, '');

/** Whether `name` reads as `local:<user>`: `local` alone or before anything but a letter or digit (`LOCAL-root`, `ｌｏｃａｌ_root`). */
const readsAsLocal = (name: string): boolean => /^local(?:[^\p{L}\p{N}]|$)/u.test(plain(name));

/**
 * Why `name` cannot name a token, or undefined when it may: the one rule the
 * API, the command and the console all meet (Tokens.create). A name that
 * folds to an actor the server writes, or that reads as `local:<user>` (a
 * command run on the database itself), could pass for it in the audit log.
 */
export function reservedNameProblem(name: string): string | undefined {
  if (readsAsLocal(name))
    return `the name ${JSON.stringify(name)} is reserved: it reads as ${LOCAL_ACTOR_PREFIX}<user>, the audit log's actor of a command run on the database itself`;
  const folded = foldedName(name);
  const taken = SERVER_ACTORS.find((actor) => foldedName(actor) === folded);
  return taken === undefined
    ? undefined
    : `the name ${JSON.stringify(name)} is reserved: with case, accents, separators and punctuation set aside it reads as ${taken}, the server's own actor in the audit log`;
}

/**
 * Whether `text` can name a section: a built-in one or an id the grammar
 * allows. Whether the catalogue holds it (and not retired) is the store's to
 * say (section-lock.ts), since sections are added at run time.
 */
export function isSection(text: unknown): text is SectionId {
  return typeof text === 'string' && (isBuiltInSection(text) || sectionIdProblem(text) === undefined);
}

export function isScope(text: unknown): text is Scope {
  if (text === 'releases' || text === 'messages' || text === 'metrics') return true;
  return typeof text === 'string' && text.startsWith('section:') && isSection(text.slice('section:'.length));
}

/** Whether the actor holds `scope`, itself or through a scope that implies it (IMPLIED). */
export function holdsScope(actor: Actor, scope: Scope): boolean {
  return actor.scopes.some((held) => held === scope || (IMPLIED[held]?.includes(scope) ?? false));
}

/** An integrator (`releases`) acts on every section, a section token on its own. */
export function mayActOn(actor: Actor, section: string): boolean {
  return actor.scopes.includes('releases') || actor.scopes.includes(`section:${section}` as Scope);
}

/** Of `sections` (the catalogue's), those whose releases, audit entries and state the actor may see. */
export function visibleSections(actor: Actor, sections: readonly string[]): string[] {
  return sections.filter((section) => mayActOn(actor, section));
}

/**
 * The one section a token's scopes act on, where they act on one alone (a
 * section token, perhaps also reading messages): the section its creation
 * and revocation are filed under in the audit log. Null for an integrator's
 * (`releases`), a messages reader's or one of several sections.
 */
export function sectionOfScopes(scopes: readonly Scope[]): SectionId | null {
  if (scopes.includes('releases')) return null;
  const sections = scopes.filter((scope) => scope.startsWith('section:')).map((scope) => scope.slice('section:'.length));
  return sections.length === 1 && isSection(sections[0]) ? sections[0] : null;
}

/** A token grants (or revokes) only what its holder has itself: an integrator cannot mint a messages reader, and may mint a scraper's `metrics` token. */
export function mayGrant(actor: Actor, scopes: readonly Scope[]): boolean {
  return scopes.every((scope) => (scope.startsWith('section:') ? mayActOn(actor, scope.slice('section:'.length)) : holdsScope(actor, scope)));
}
