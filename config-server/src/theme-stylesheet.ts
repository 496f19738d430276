import { createHash } from 'node:crypto';
import { HEX_COLOR, themeProperties, type Theme } from '@portico/shared-config/theme';

// Node only: the operator's theme as a stylesheet, for the server-rendered
// page's first paint. The browser sets the same properties through the CSSOM
// (host/src/app/apply-theme.ts); a server-rendered page cannot wait for that,
// and the CSP forbids an inline <style>, so the server links this instead.

/** Where the host's server answers the theme's stylesheet. */
export const THEME_STYLESHEET_PATH = '/theme.css';

/** A custom property base.css declares: the only names themeProperties makes. */
const PROPERTY_NAME = /^--color-[a-z-]+$/;

export interface ThemeStylesheet {
  /** `:root{--color-primary:#…;…}`: base.css's custom properties, overridden. */
  css: string;
  /** A hash of `css`: the page links `/theme.css?v=<version>`, cached for good. */
  version: string;
  /** The address the page links. */
  href: string;
}

/**
 * The stylesheet of a theme parseConfig accepted, or undefined when there is
 * none to apply. Every name and value is checked again here, right before it
 * is written into CSS: a `#rrggbb` colour cannot end the rule or start
 * another, and anything else (a value that slipped past the schema, a caller
 * that skipped parseConfig) refuses the whole stylesheet, since a theme's
 * colours are only applied together.
 */
export function themeStylesheet(theme: Partial<Theme> | undefined): ThemeStylesheet | undefined {
  if (!theme) return undefined;
  const declarations = Object.entries(themeProperties(theme));
  if (declarations.length === 0) return undefined;
  for (const [name, value] of declarations) {
    if (!PROPERTY_NAME.test(name) || !HEX_COLOR.test(value)) {
      throw new Error(`theme: refusing to write ${JSON.stringify(name)}: ${JSON.stringify(value)} into a stylesheet (not a #rrggbb colour)`);
    }
  }
  // `:root:root` outranks base.css's `:root` whatever order the two arrive in.
  const css = `:root:root{${declarations.map(([name, value]) => `${name}:${value.toLowerCase()}`).join(';')}}\n`;
  const version = createHash('sha256').update(css).digest('base64url').slice(0, 16);
  return { css, version, href: `${THEME_STYLESHEET_PATH}?v=${version}` };
}
