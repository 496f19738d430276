import { contrastRatio, mixColors, relativeLuminance } from '../contrast';

test('luminance runs from 0 for black to 1 for white', () => {
  expect(relativeLuminance('#000000')).toBe(0);
  expect(relativeLuminance('#ffffff')).toBe(1);
  // sRGB's mid grey is far darker than half in light.
  expect(relativeLuminance('#808080')).toBeCloseTo(0.2159, 4);
});

test.each([
  ['#000000', '#ffffff', 21],
  ['#ffffff', '#ffffff', 1],
  // Pairs whose ratios WebAIM's contrast checker gives.
  ['#767676', '#ffffff', 4.54],
  ['#777777', '#ffffff', 4.48],
  ['#0b5c6b', '#ffffff', 7.62],
  ['#1b2430', '#f6f8fb', 14.71],
])('%s on %s is %p:1', (foreground, background, ratio) => {
  expect(contrastRatio(foreground, background)).toBeCloseTo(ratio, 2);
});

test('the order of the two colours does not matter, nor letter case', () => {
  expect(contrastRatio('#FFFFFF', '#0B5C6B')).toBe(contrastRatio('#0b5c6b', '#ffffff'));
});

test.each([['red'], ['#fff'], ['#12345g'], ['0b5c6b']])('%p is not a #rrggbb colour', (color) => {
  expect(() => relativeLuminance(color)).toThrow('not a #rrggbb colour');
});

test('mixing moves each channel the given share of the way', () => {
  expect(mixColors('#000000', '#ffffff', 0.5)).toBe('#808080');
  expect(mixColors('#0b5c6b', '#000000', 0)).toBe('#0b5c6b');
  expect(mixColors('#0b5c6b', '#ffffff', 1)).toBe('#ffffff');
});
