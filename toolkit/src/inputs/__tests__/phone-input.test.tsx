import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PhoneInput } from '../phone-input';

function renderPhone(defaultValue?: string) {
  const changes: string[] = [];
  render(<PhoneInput label="Mobile number" defaultValue={defaultValue} onValueChange={(digits) => changes.push(digits)} />);
  const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Mobile number' });
  return { input, changes };
}

test('shows typed digits 3-4-4 and reports the bare digits', async () => {
  const user = userEvent.setup();
  const { input, changes } = renderPhone();

  await user.type(input, '13812345678');

  expect(input).toHaveValue('138 1234 5678');
  expect(changes.at(-1)).toBe('13812345678');
});

test('ignores letters and symbols', async () => {
  const user = userEvent.setup();
  const { input, changes } = renderPhone();

  await user.type(input, 'a1-3 8b');

  expect(input).toHaveValue('138');
  expect(changes).toEqual(['1', '13', '138']);
});

test('stops at 11 digits', async () => {
  const user = userEvent.setup();
  const { input, changes } = renderPhone();

  await user.type(input, '138123456789999');

  expect(input).toHaveValue('138 1234 5678');
  expect(changes.at(-1)).toBe('13812345678');
});

test('a pasted number is cleaned and grouped', async () => {
  const user = userEvent.setup();
  const { input, changes } = renderPhone();

  await user.click(input);
  await user.paste('138-1234-5678');

  expect(input).toHaveValue('138 1234 5678');
  expect(changes).toEqual(['13812345678']);
});

test('a pasted text that is too long keeps its first 11 digits', async () => {
  const user = userEvent.setup();
  const { input } = renderPhone();

  await user.click(input);
  await user.paste('tel: 138 1234 5678 ext. 99');

  expect(input).toHaveValue('138 1234 5678');
});

test('a digit typed in the middle goes where the caret is, and the caret follows it', async () => {
  const user = userEvent.setup();
  const { input, changes } = renderPhone('1381234');
  expect(input).toHaveValue('138 1234');

  await user.type(input, '9', { initialSelectionStart: 3, initialSelectionEnd: 3 });
  expect(input).toHaveValue('138 9123 4');
  expect(input.selectionStart).toBe(5);

  await user.keyboard('0');
  expect(input).toHaveValue('138 9012 34');
  expect(input.selectionStart).toBe(6);
  expect(changes.at(-1)).toBe('138901234');
});

test('after moving the caret with the arrow keys, typing inserts there', async () => {
  const user = userEvent.setup();
  const { input } = renderPhone();

  await user.type(input, '13812345');
  expect(input).toHaveValue('138 1234 5');
  // Three steps left from the end: past "5", the space and "4".
  await user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}7');

  expect(input).toHaveValue('138 1237 45');
  expect(input.selectionStart).toBe(8);
});

test('backspace just after a space deletes the digit before the space', async () => {
  const user = userEvent.setup();
  const { input, changes } = renderPhone('1381234');

  await user.type(input, '{Backspace}', { initialSelectionStart: 4, initialSelectionEnd: 4 });

  expect(input).toHaveValue('131 234');
  expect(input.selectionStart).toBe(2);
  expect(changes).toEqual(['131234']);
});

test('delete just before a space deletes the digit after it', async () => {
  const user = userEvent.setup();
  const { input } = renderPhone('1381234');

  await user.type(input, '{Delete}', { initialSelectionStart: 3, initialSelectionEnd: 3 });

  expect(input).toHaveValue('138 234');
  expect(input.selectionStart).toBe(3);
});

test('a full number refuses a digit typed in the middle rather than dropping its last one', async () => {
  const user = userEvent.setup();
  const { input, changes } = renderPhone('13812345678');

  await user.type(input, '9', { initialSelectionStart: 5, initialSelectionEnd: 5 });

  expect(input).toHaveValue('138 1234 5678');
  expect(changes).toEqual([]);
});

test('selecting everything and typing replaces the number', async () => {
  const user = userEvent.setup();
  const { input } = renderPhone('13812345678');

  await user.tripleClick(input);
  await user.keyboard('0812');

  expect(input).toHaveValue('081 2');
});

test('a default value is cleaned, capped and grouped', () => {
  const { input } = renderPhone('+91 98765-43210');

  expect(input).toHaveValue('919 8765 4321');
});
