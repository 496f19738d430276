/**
 * The section id of the bench's extra remote `index`: its federation name is
 * the contract's for that id (`portico_extra_0`…), so that config.json can
 * add it as a section of its own (the "fed SSR + N static" column).
 */
export const extraSectionId = (index: number): string => `extra-${index}`;
