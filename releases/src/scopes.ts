import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import type { Actor, Scope } from './release';

/** The owner token's and PORTICO_CONTROL_TOKEN's scopes: `releases` covers every section. */
export const ALL_SCOPES: readonly Scope[] = ['releases', 'messages'];

/** The actor name PORTICO_CONTROL_TOKEN acts as, in the audit log. */
export const ENVIRONMENT_ACTOR = 'environment';

/** The name of the token a fresh install writes to the data folder. */
export const OWNER_TOKEN_NAME = 'owner';

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

/** A token grants (or revokes) only what its holder has itself: an integrator cannot mint a messages reader. */
export function mayGrant(actor: Actor, scopes: readonly Scope[]): boolean {
  return scopes.every((scope) => (scope.startsWith('section:') ? mayActOn(actor, scope.slice('section:'.length) as SectionId) : actor.scopes.includes(scope)));
}
