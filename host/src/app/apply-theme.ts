import { themeProperties, type Theme } from '@portico/shared-config';

/**
 * The operator's colours, checked by parseConfig, as base.css's custom
 * properties on `<html>`. Set through the CSSOM, which a Content-Security-
 * Policy without `'unsafe-inline'` styles allows, where a `<style>` element
 * would be refused. Before the first render, so no default colour flashes.
 */
export function applyTheme(theme: Partial<Theme> | undefined, root: HTMLElement = document.documentElement): void {
  if (!theme) return;
  for (const [property, value] of Object.entries(themeProperties(theme))) root.style.setProperty(property, value);
  // The browser's own toolbar follows the brand colour on phones.
  if (theme.primary) document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme.primary);
}
