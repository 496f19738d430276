import { render, screen } from '@testing-library/react';
import { fillParts } from '../fill-parts';

test('a placeholder becomes the given element, wherever the language puts it', () => {
  const { container } = render(<p>{fillParts('Visit {link} or call {phone}.', { link: <a href="https://x.example">x.example</a>, phone: '157' })}</p>);
  expect(container).toHaveTextContent('Visit x.example or call 157.');
  expect(screen.getByRole('link', { name: 'x.example' })).toHaveAttribute('href', 'https://x.example');
});

test('text values stay text, and an unknown placeholder is left as written', () => {
  const { container } = render(<p>{fillParts('{name} {other}', { name: '<b>bold</b>' })}</p>);
  expect(container).toHaveTextContent('<b>bold</b> {other}');
  expect(container.querySelector('b')).toBeNull();
});
