import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import { LOCAL_ACTOR_PREFIX } from '@portico/platform/command-line';
import type { Actor, Scope } from './release';

/** The owner token's and PORTICO_CONTROL_TOKEN's scopes: `releases` covers every section. */
export const ALL_SCOPES: readonly Scope[] = ['releases', 'messages'];

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
 * Every name the server writes in the audit log as an actor of its own: no
 * token may be named so, in any case or spelling of its separators, or an
 * integrator could forge a "canary-judge rollback" line. A new actor of the
 * server's belongs here.
 */
export const SERVER_ACTORS: readonly string[] = [OWNER_TOKEN_NAME, ENVIRONMENT_ACTOR, SERVER_ACTOR, BACKGROUND_CHECK_ACTOR, JUDGE_ACTOR];

/** How a name reads to someone scanning the audit log: case and `.`, `_`, `-` alike. */
const spoken = (name: string) => name.toLowerCase().replace(/[._-]+/g, '-');

/** Why `name` cannot name a token (an actor the server or a local command writes), or undefined when it may. */
export function reservedNameProblem(name: string): string | undefined {
  if (name.toLowerCase().startsWith(LOCAL_ACTOR_PREFIX))
    return `a token's name may not start with ${LOCAL_ACTOR_PREFIX}: the audit log's actor of a command run on the database itself`;
  const taken = SERVER_ACTORS.find((actor) => spoken(actor) === spoken(name));
  return taken === undefined ? undefined : `the name ${name} is reserved: the audit log's ${taken} is the server's own actor`;
}

export function isSection(text: unknown): text is SectionId {
  return typeof text === 'string' && (SECTION_IDS as readonly string[]).includes(text);
}

export function isScope(text: unknown): text is Scope {
  if (text === 'releases' || text === 'messages') return true;
  return typeof text === 'string' && text.startsWith('section:') && isSection(text.slice('section:'.length));
}

/** An integrator (`releases`) acts on every section, a section token on its own. */
export function mayActOn(actor: Actor, section: SectionId): boolean {
  return actor.scopes.includes('releases') || actor.scopes.includes(`section:${section}`);
}

/** The sections whose releases, audit entries and state the actor may see. */
export function visibleSections(actor: Actor): SectionId[] {
  return SECTION_IDS.filter((section) => mayActOn(actor, section));
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

/** A token grants (or revokes) only what its holder has itself: an integrator cannot mint a messages reader. */
export function mayGrant(actor: Actor, scopes: readonly Scope[]): boolean {
  return scopes.every((scope) => (scope.startsWith('section:') ? mayActOn(actor, scope.slice('section:'.length) as SectionId) : actor.scopes.includes(scope)));
}
