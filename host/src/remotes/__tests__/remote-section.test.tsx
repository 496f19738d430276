import { renderWithPortico } from '@portico/shared-config/testing';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadSection } from '../load-section';
import { RemoteSection } from '../remote-section';

jest.mock('../load-section', () => ({ loadSection: jest.fn() }));
const load = jest.mocked(loadSection);

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));

test('a section that fails to load shows an alert, and Try again loads it afresh', async () => {
  const user = userEvent.setup();
  load.mockRejectedValueOnce(new Error('Loading script failed'));
  load.mockResolvedValueOnce({ Section: () => <h2>Contact form</h2> });
  await renderWithPortico(<RemoteSection section="contact" />);

  expect(await screen.findByRole('alert')).toHaveTextContent('The Contact us section could not be loaded.');
  // Try again starts a new load; React settles it only inside an awaited act().
  await act(() => user.click(screen.getByRole('button', { name: 'Try again' })));

  expect(await screen.findByRole('heading', { name: 'Contact form' })).toBeVisible();
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  expect(load).toHaveBeenLastCalledWith('contact', expect.any(String), { fresh: true });
});

test('a section that throws while rendering is contained in its own alert', async () => {
  load.mockResolvedValueOnce({
    Section: () => {
      throw new Error('render bug');
    },
  });
  await renderWithPortico(
    <>
      <RemoteSection section="about" />
      <p>rest of the page</p>
    </>,
  );
  expect(await screen.findByRole('alert')).toHaveTextContent('The About Us section could not be loaded.');
  expect(screen.getByText('rest of the page')).toBeVisible();
});
