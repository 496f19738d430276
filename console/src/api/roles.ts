import { SECTION_IDS, type SectionId } from '@portico/contract/sections';
import type { Actor } from './console-session';

/**
 * What a session's role may see, from its token's scopes (docs/releases.md,
 * "Tokens"). The console shows only this; the API refuses the rest whatever
 * the page sends.
 */
export interface Role {
  /** `releases`: every section, the tokens and the alerts. */
  integrator: boolean;
  /** The sections whose releases it sees and acts on. */
  sections: readonly SectionId[];
  /** `messages`: the inbox. */
  inbox: boolean;
}

export function roleOf(actor: Actor): Role {
  const integrator = actor.scopes.includes('releases');
  const own = new Set(actor.scopes.flatMap((scope) => (scope.startsWith('section:') ? [scope.slice('section:'.length)] : [])));
  return {
    integrator,
    sections: SECTION_IDS.filter((section) => integrator || own.has(section)),
    inbox: actor.scopes.includes('messages'),
  };
}
