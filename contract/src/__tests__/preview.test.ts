import { configUrlFor, PREVIEW_TOKEN_MAX, previewTokenIn } from '../preview';

test("a preview visit reads config.json with its link's token, escaped; any other visit reads it plain", () => {
  expect(configUrlFor('?preview=abc.d-f_&type=2')).toBe('/config.json?preview=abc.d-f_');
  expect(configUrlFor('?preview=a%26b%3Dc')).toBe('/config.json?preview=a%26b%3Dc');
  expect(configUrlFor('?type=2')).toBe('/config.json');
  expect(configUrlFor('')).toBe('/config.json');
});

test('a token longer than any the server signs is not looked at', () => {
  expect(previewTokenIn(`?preview=${'a'.repeat(PREVIEW_TOKEN_MAX)}`)).toHaveLength(PREVIEW_TOKEN_MAX);
  expect(previewTokenIn(`?preview=${'a'.repeat(PREVIEW_TOKEN_MAX + 1)}`)).toBeUndefined();
  expect(previewTokenIn('?preview=')).toBeUndefined();
});
