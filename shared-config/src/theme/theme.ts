import { contrastRatio, MIN_TEXT_CONTRAST, mixColors } from './contrast';

/** The colours an operator may set in config.json `theme`, each `#rrggbb`. */
export interface Theme {
  /** The page's background. */
  background: string;
  /** Body text, on the background and on white cards and fields. */
  text: string;
  /** Links, headings, buttons and the footer; buttons carry white text on it. */
  primary: string;
}

/**
 * The page's own colours, as base.css declares them (a unit test keeps the
 * two equal). The three of `Theme` can be replaced; the others cannot, and
 * are what a theme is checked against.
 */
export const PAGE_COLORS = {
  background: '#f6f8fb',
  text: '#1b2430',
  primary: '#0b5c6b',
  primaryStrong: '#084652',
  primarySoft: '#e3f1f3',
  surface: '#ffffff',
  muted: '#4a5565',
  danger: '#a4262c',
  white: '#ffffff',
} as const;

export const DEFAULT_THEME: Theme = {
  background: PAGE_COLORS.background,
  text: PAGE_COLORS.text,
  primary: PAGE_COLORS.primary,
};

type PageColor = keyof typeof PAGE_COLORS;
type PageColors = Record<PageColor, string>;

/**
 * The page's colours with a theme applied. A themed primary brings its own
 * darker shade (headings, the footer) and pale tint (notes, step numbers),
 * mixed the way the defaults relate to the default primary.
 */
function themedColors(theme: Partial<Theme>): PageColors {
  const colors: PageColors = { ...PAGE_COLORS, ...theme };
  if (theme.primary) {
    colors.primaryStrong = mixColors(theme.primary, '#000000', 0.25);
    colors.primarySoft = mixColors(theme.primary, '#ffffff', 0.9);
  }
  return colors;
}

/** The CSS custom properties of base.css a theme sets on `<html>`. */
export function themeProperties(theme: Partial<Theme>): Record<string, string> {
  const colors = themedColors(theme);
  const properties: Record<string, string> = {};
  if (theme.background) properties['--color-bg'] = colors.background;
  if (theme.text) properties['--color-text'] = colors.text;
  if (theme.primary) {
    properties['--color-primary'] = colors.primary;
    properties['--color-primary-strong'] = colors.primaryStrong;
    properties['--color-primary-soft'] = colors.primarySoft;
  }
  return properties;
}

interface ColorPair {
  foreground: PageColor;
  background: PageColor;
  /** What a visitor reads in these colours, for the operator's message. */
  what: string;
}

/** Every pair of colours the page draws text in, that a theme can change. */
const TEXT_PAIRS: readonly ColorPair[] = [
  { foreground: 'text', background: 'background', what: 'text on the background' },
  { foreground: 'text', background: 'surface', what: 'text on white cards and fields' },
  { foreground: 'text', background: 'primarySoft', what: 'text on tinted notes' },
  { foreground: 'white', background: 'primary', what: 'white button text on primary' },
  { foreground: 'white', background: 'primaryStrong', what: 'white footer text' },
  { foreground: 'primary', background: 'background', what: 'links on the background' },
  { foreground: 'primaryStrong', background: 'background', what: 'headings on the background' },
  { foreground: 'primaryStrong', background: 'primarySoft', what: 'step numbers' },
  { foreground: 'muted', background: 'background', what: `secondary text (${PAGE_COLORS.muted}) on the background` },
  { foreground: 'danger', background: 'background', what: `error messages (${PAGE_COLORS.danger}) on the background` },
];

/** Which theme field a page colour comes from, if any. */
const SOURCE: Partial<Record<PageColor, keyof Theme>> = {
  background: 'background',
  text: 'text',
  primary: 'primary',
  primaryStrong: 'primary',
  primarySoft: 'primary',
};

/** Rounded down, so a ratio just short of 4.5 never reads as 4.50. */
const ratioText = (ratio: number) => `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;

export interface ThemeContrastProblem {
  /** The theme field to change: of the pair's colours, the first the operator set. */
  field: keyof Theme;
  message: string;
}

/**
 * Every pair of colours whose contrast a theme brings below 4.5:1, grouped
 * by the field to change. The defaults pass; a theme with any problem is
 * not applied at all, since its colours were chosen together.
 */
export function themeContrastProblems(theme: Partial<Theme>): ThemeContrastProblem[] {
  const colors = themedColors(theme);
  const failures = new Map<keyof Theme, string[]>();
  for (const pair of TEXT_PAIRS) {
    const ratio = contrastRatio(colors[pair.foreground], colors[pair.background]);
    if (ratio >= MIN_TEXT_CONTRAST) continue;
    const sources = [SOURCE[pair.foreground], SOURCE[pair.background]].filter((key) => key !== undefined);
    const field = sources.find((key) => theme[key] !== undefined) ?? sources[0] ?? 'background';
    failures.set(field, [...(failures.get(field) ?? []), `${pair.what} ${ratioText(ratio)}`]);
  }
  return [...failures].map(([field, found]) => ({
    field,
    message: `too little contrast (at least ${MIN_TEXT_CONTRAST}:1 needed): ${found.join(', ')}; the default colours are used`,
  }));
}
