import { STYLESHEETS_PER_SECTION } from '@portico/contract/section-styles';

/**
 * What a section rendered on the server may name in stylesheets: the front
 * server fetches each once per manifest and answers it from the page's
 * origin, and the publish checks tell a team whose build is over them.
 * Over any, the section is rendered in the browser (which loads its
 * stylesheets itself), never on the server.
 */
export const SECTION_STYLESHEET_LIMITS = {
  /** How many stylesheets a manifest names for the section. */
  perSection: STYLESHEETS_PER_SECTION,
  /** One stylesheet. */
  maxBytes: 512 * 1024,
  /** All of a section's together. */
  sectionBytes: 1024 * 1024,
} as const;
