/**
 * How far a section's own token may take a release alone (issue 49), the
 * integrator's choice per section, each level including the ones before:
 * `publish` (publish and preview), `canary` (and start or change a canary),
 * `activate` (and activate, promote and roll back). An integrator token
 * (`releases`) does everything whatever the policy; any section token may
 * abort its section's canary (ending exposure is never the risk).
 */
export const RELEASE_POLICIES = ['publish', 'canary', 'activate'] as const;

export type ReleasePolicy = (typeof RELEASE_POLICIES)[number];

/** Today's: a section token does everything on its own section. */
export const DEFAULT_RELEASE_POLICY: ReleasePolicy = 'activate';

/** Whether a section token under `policy` may take `step` alone. */
export const policyAllows = (policy: ReleasePolicy, step: ReleasePolicy): boolean => RELEASE_POLICIES.indexOf(policy) >= RELEASE_POLICIES.indexOf(step);

const ALLOWED: Record<ReleasePolicy, string> = {
  publish: 'publish and preview',
  canary: 'publish, preview and run a canary',
  activate: 'publish, preview, run a canary, activate, promote and roll back',
};

/** What a section's own token may do under `policy`, in words. */
export const describePolicy = (policy: ReleasePolicy): string => ALLOWED[policy];

/** The 403's words: who may not do what, the policy by name, and how it changes. */
export function policyRefusal(token: string, section: string, policy: ReleasePolicy, what: string): string {
  return (
    `the token ${token} may not ${what} alone: ${section}'s release policy is "${policy}" (its own token may ${describePolicy(policy)}); ` +
    `an integrator token does this, or sets the policy (npm run release -- policy ${section} <publish|canary|activate>)`
  );
}
