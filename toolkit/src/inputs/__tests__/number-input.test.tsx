import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NumberInput } from '../number-input';

test('keeps digits only, ungrouped, not even a sign or a decimal point', async () => {
  const user = userEvent.setup();
  const changes: string[] = [];
  render(<NumberInput label="Loan term (days)" onValueChange={(digits) => changes.push(digits)} />);
  const input = screen.getByRole('textbox', { name: 'Loan term (days)' });

  await user.type(input, '-1,234.5e6');

  expect(input).toHaveValue('123456');
  expect(changes.at(-1)).toBe('123456');
});

test('a paste keeps its digits', async () => {
  const user = userEvent.setup();
  render(<NumberInput label="Amount" />);
  const input = screen.getByRole('textbox', { name: 'Amount' });

  await user.click(input);
  await user.paste('₹ 12,000');

  expect(input).toHaveValue('12000');
});

test('passes other props to the input and keeps a given id for the label', () => {
  render(<NumberInput label="Amount" id="amount" name="amount" placeholder="2000" required maxDigits={5} defaultValue="123456" />);
  const input = screen.getByRole('textbox', { name: 'Amount' });

  expect(input).toHaveAttribute('id', 'amount');
  expect(input).toHaveAttribute('name', 'amount');
  expect(input).toHaveAttribute('placeholder', '2000');
  expect(input).toBeRequired();
  expect(input).toHaveValue('12345');
});
