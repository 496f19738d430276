// The theme alone, without React: what a server needs to write the
// operator's theme as a stylesheet (@portico/config-server/theme-stylesheet)
// from the same names and colour check the page applies it with.
export { HEX_COLOR } from './contrast';
export { themeProperties, type Theme } from './theme';
