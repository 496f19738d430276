import { caretAfterDigits, groupDigits, keepDigits } from '../digits';

test('keepDigits keeps ASCII digits only', () => {
  expect(keepDigits('+91 (987) 654-3210')).toBe('919876543210');
  expect(keepDigits('abc')).toBe('');
  expect(keepDigits('١٢٣ 123')).toBe('123');
});

test.each([
  ['13812345678', [3, 4, 4], '138 1234 5678'],
  ['1381', [3, 4, 4], '138 1'],
  ['138', [3, 4, 4], '138'],
  ['6222021234567890123', [4], '6222 0212 3456 7890 123'],
  ['12345', [], '12345'],
  ['', [4], ''],
])('groupDigits(%p, %p) shows %p', (digits, sizes, shown) => {
  expect(groupDigits(digits, sizes)).toBe(shown);
});

test.each([
  ['138 1234 5678', 0, 0],
  ['138 1234 5678', 3, 3],
  ['138 1234 5678', 4, 5],
  ['138 1234 5678', 11, 13],
  ['138 1', 9, 5],
])('caretAfterDigits(%p, %p) is %p', (formatted, count, caret) => {
  expect(caretAfterDigits(formatted, count)).toBe(caret);
});
