import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_THEME, PAGE_COLORS, themeContrastProblems, themeProperties } from '../theme';

test('the page colours here are the ones base.css declares', () => {
  const css = readFileSync(path.join(__dirname, '../../styles/base.css'), 'utf8');
  // White (`#fff`, button and footer text) is written as it is, not as a custom property.
  const { white: _white, ...cssColors } = PAGE_COLORS;
  const declared = (name: string) => new RegExp(`--color-${name}:\\s*(#[0-9a-f]{6});`, 'i').exec(css)?.[1];
  expect({
    background: declared('bg'),
    text: declared('text'),
    primary: declared('primary'),
    primaryStrong: declared('primary-strong'),
    primarySoft: declared('primary-soft'),
    surface: declared('surface'),
    muted: declared('muted'),
    danger: declared('danger'),
  }).toEqual(cssColors);
});

test('the default colours pass, given or left out', () => {
  expect(themeContrastProblems({})).toEqual([]);
  expect(themeContrastProblems(DEFAULT_THEME)).toEqual([]);
});

test('a calm theme of other colours passes', () => {
  expect(themeContrastProblems({ background: '#fbf9f4', text: '#222222', primary: '#6b2d5c' })).toEqual([]);
});

test('grey text on the default background is refused, naming text and the ratio rounded down', () => {
  expect(themeContrastProblems({ text: '#8a8a8a' })).toEqual([
    {
      field: 'text',
      message:
        'too little contrast (at least 4.5:1 needed): text on the background 3.24:1, text on white cards and fields 3.45:1, text on tinted notes 2.98:1; the default colours are used',
    },
  ]);
});

test('a primary too light for white button text is refused by its own name', () => {
  const [problem] = themeContrastProblems({ primary: '#3fa7b9' });
  expect(problem?.field).toBe('primary');
  expect(problem?.message).toContain('white button text on primary 2.');
});

test('a dark background is named: the fixed secondary and error texts would vanish on it', () => {
  const problems = themeContrastProblems({ background: '#20252b', text: '#ffffff' });
  expect(problems.map((problem) => problem.field)).toEqual(['text', 'background']);
  expect(problems[0]?.message).toContain('text on white cards and fields 1.00:1');
  expect(problems[1]?.message).toContain('secondary text (#4a5565) on the background');
  expect(problems[1]?.message).toContain('error messages (#a4262c) on the background');
});

test('of a failing pair, the field named is one the operator set', () => {
  // Default text on a mid-grey background: the background is the one to change.
  expect(themeContrastProblems({ background: '#6b7280' }).map((problem) => problem.field)).toEqual(['background']);
});

test('a theme sets only the properties it changes, a primary with its shades', () => {
  expect(themeProperties({})).toEqual({});
  expect(themeProperties({ background: '#fbf9f4', text: '#222222' })).toEqual({
    '--color-bg': '#fbf9f4',
    '--color-text': '#222222',
  });
  expect(themeProperties({ primary: '#0b5c6b' })).toEqual({
    '--color-primary': '#0b5c6b',
    // Close to base.css's own #084652 and #e3f1f3.
    '--color-primary-strong': '#084550',
    '--color-primary-soft': '#e7eff0',
  });
});
