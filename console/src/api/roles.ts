import type { Actor } from './console-session';

/**
 * What a session's role may see, from its token's scopes (docs/releases.md,
 * "Tokens"). The console shows only this; the API refuses the rest whatever
 * the page sends.
 */
export interface Role {
  /** `releases`: every section, the tokens and the alerts. */
  integrator: boolean;
  /** The sections of its `section:<id>` scopes; an integrator sees every section besides. */
  own: readonly string[];
  /** It sees releases at all: an integrator, or a token of one or more sections. */
  releases: boolean;
  /** `messages`: the inbox. */
  inbox: boolean;
}

export function roleOf(actor: Actor): Role {
  const integrator = actor.scopes.includes('releases');
  const own = actor.scopes.flatMap((scope) => (scope.startsWith('section:') ? [scope.slice('section:'.length)] : []));
  return { integrator, own, releases: integrator || own.length > 0, inbox: actor.scopes.includes('messages') };
}

/** Whether `role` sees the section `id` (its releases, its page). */
export function seesSection(role: Role, id: string): boolean {
  return role.integrator || role.own.includes(id);
}
