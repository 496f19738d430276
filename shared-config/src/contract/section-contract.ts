import type { ComponentType } from 'react';

export const SECTION_IDS = ['home', 'about', 'contact'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/**
 * Props the host passes to every section. Sections take none today: config
 * and language reach them through the shared PorticoProvider. The type is the
 * place where the contract grows, checked on both sides at compile time.
 */
export type SectionProps = Readonly<Record<never, never>>;

/** The shape of the one module each remote exposes. */
export interface SectionModule {
  Section: ComponentType<SectionProps>;
}

/** The request the host makes of each remote, and the remote's expose key. */
export const EXPOSED_SECTION = './section';

export function remoteNameOf(id: SectionId): string {
  return `portico_${id}`;
}
