import type { ComponentType } from 'react';

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
