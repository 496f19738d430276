/** @jest-environment node */
import { parseConfig } from '@portico/shared-config/config';
import { themeStylesheet } from '../theme-stylesheet';

const base = { comName: 'Lender', email: 'help@lender.example', address: 'Somewhere', copyright: '(c) Lender' };

test('no theme, or an empty one, makes no stylesheet', () => {
  expect(themeStylesheet(undefined)).toBeUndefined();
  expect(themeStylesheet({})).toBeUndefined();
});

test("the theme's colours as base.css's custom properties, in one rule that outranks base.css's :root", () => {
  const sheet = themeStylesheet({ background: '#FBF9F4', primary: '#6b2d5c' })!;
  expect(sheet.css).toBe(':root:root{--color-bg:#fbf9f4;--color-primary:#6b2d5c;--color-primary-strong:#502245;--color-primary-soft:#f0eaef}\n');
  expect(sheet.href).toBe(`/theme.css?v=${sheet.version}`);
  expect(sheet.version).toMatch(/^[A-Za-z0-9_-]{16}$/);
});

test('the version follows the colours, so a changed theme is a new address', () => {
  const one = themeStylesheet({ primary: '#6b2d5c' })!;
  expect(themeStylesheet({ primary: '#6b2d5c' })!.version).toBe(one.version);
  expect(themeStylesheet({ primary: '#0b4f6b' })!.version).not.toBe(one.version);
});

test.each([
  ['text', 'red;}body{display:none'],
  ['background', '#fff}*{background:url(https://evil.example/x)}:root{--a:#000'],
  ['primary', '#123456;}@import url(//evil.example/x.css);'],
  ['text', '#12345</style><script>alert(1)</script>'],
])('a %s that is not a #rrggbb colour (%s) is refused, never written into CSS', (field, value) => {
  expect(() => themeStylesheet({ [field]: value })).toThrow();
});

test('parseConfig drops a theme that would break out of the rule, so the server links nothing', () => {
  const { config } = parseConfig({ ...base, theme: { primary: '#6b2d5c;}body{display:none' } });
  expect(themeStylesheet(config.theme)).toBeUndefined();
});
