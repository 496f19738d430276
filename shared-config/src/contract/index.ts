// The React side of the contract between the apps: what a section module is
// and the props it gets. The contract as data (section ids, ports, languages,
// manifests) is @portico/contract's.
export { type SectionModule, type SectionProps } from './section-contract';
