import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BankCardInput } from '../bank-card-input';

test('groups a typed card number by four and reports the bare digits', async () => {
  const user = userEvent.setup();
  const changes: string[] = [];
  render(<BankCardInput label="Card number" onValueChange={(digits) => changes.push(digits)} />);
  const input = screen.getByRole('textbox', { name: 'Card number' });

  await user.type(input, '6222-0212 3456x7890123');

  expect(input).toHaveValue('6222 0212 3456 7890 123');
  expect(changes.at(-1)).toBe('6222021234567890123');
  expect(input).toHaveAttribute('inputmode', 'numeric');
  expect(input).toHaveAttribute('autocomplete', 'cc-number');
});

test('a pasted card number is cleaned and grouped', async () => {
  const user = userEvent.setup();
  render(<BankCardInput label="Card number" />);
  const input = screen.getByRole('textbox', { name: 'Card number' });

  await user.click(input);
  await user.paste('6222.0212.3456.7890');

  expect(input).toHaveValue('6222 0212 3456 7890');
});

test('a digit typed in the middle keeps the caret right after it', async () => {
  const user = userEvent.setup();
  render(<BankCardInput label="Card number" defaultValue="62220212" />);
  const input = screen.getByRole<HTMLInputElement>('textbox', { name: 'Card number' });

  await user.type(input, '5', { initialSelectionStart: 4, initialSelectionEnd: 4 });

  expect(input).toHaveValue('6222 5021 2');
  expect(input.selectionStart).toBe(6);
});

test('maxDigits limits the number when given', async () => {
  const user = userEvent.setup();
  render(<BankCardInput label="Card number" maxDigits={16} />);
  const input = screen.getByRole('textbox', { name: 'Card number' });

  await user.type(input, '62220212345678901234');

  expect(input).toHaveValue('6222 0212 3456 7890');
});
