import { render, screen } from '@testing-library/react';
import { Component } from 'react';
import { logCaughtError, SectionBoundary } from '../section-boundary';

function Broken(): never {
  throw new Error('broken');
}

test('an error below the boundary shows the fallback in its place only', () => {
  jest.spyOn(console, 'error').mockImplementation(() => {});
  render(
    <main>
      <SectionBoundary fallback={(error) => <p role="alert">failed: {(error as Error).message}</p>}>
        <Broken />
      </SectionBoundary>
      <p>the rest</p>
    </main>,
  );
  expect(screen.getByRole('alert')).toHaveTextContent('failed: broken');
  expect(screen.getByText('the rest')).toBeVisible();
});

test('the root leaves errors caught by a section boundary to the section, and logs the others', () => {
  const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
  const boundary = new SectionBoundary({ fallback: () => null, children: null });
  logCaughtError(new Error('reported by the section'), { errorBoundary: boundary });
  expect(errors).not.toHaveBeenCalled();

  const elsewhere = new Error('caught elsewhere');
  logCaughtError(elsewhere, { errorBoundary: new (class Other extends Component {})({}) });
  expect(errors).toHaveBeenCalledWith(elsewhere);
});
