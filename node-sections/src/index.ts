export { loadNodeSection, type LoadNodeSectionOptions } from './node-section/load-node-section';
export { type SharedModules } from './node-section/evaluate-container';
export { DEFAULT_FETCH_LIMITS, fetchVerified, type FetchLimits } from './node-section/fetch-verified';
export { NodeSectionError, type NodeSectionRefusal } from './node-section/node-section-error';
export { assertSri } from './node-section/sri';
export { SECTION_STYLESHEET_LIMITS } from './node-section/stylesheet-limits';
export { scopeSectionStylesheet, type ScopedStylesheet, type StylesheetScope } from './section-css/scope-stylesheet';
