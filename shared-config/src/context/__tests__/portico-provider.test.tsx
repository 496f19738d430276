import { render, screen } from '@testing-library/react';
import { renderWithPortico } from '../../testing/test-utils';
import { PorticoProvider } from '../portico-provider';
import { useConfig } from '../use-config';
import { usePortico } from '../use-portico';
import { useText } from '../use-text';

function Footer() {
  const { comName = 'unnamed' } = useConfig();
  const text = useText();
  const { problems, language } = usePortico();
  return (
    <footer>
      <p>
        {text.footer.companyName}: {comName}
      </p>
      <p>Language: {language}</p>
      <p>Problems: {problems.map((problem) => problem.field).join(', ') || 'none'}</p>
    </footer>
  );
}

test('a section reads the config, the texts and the problems through the provider', () => {
  render(
    <PorticoProvider
      config={{ comName: 'Portico Credit', remotes: {}, allowedRemoteOrigins: [] }}
      problems={[{ field: 'email', message: 'is missing (expected string)' }]}
      language="en"
    >
      <Footer />
    </PorticoProvider>,
  );

  expect(screen.getByText('Company Name: Portico Credit')).toBeInTheDocument();
  expect(screen.getByText('Language: en')).toBeInTheDocument();
  expect(screen.getByText('Problems: email')).toBeInTheDocument();
});

test('without problems given, there are none', async () => {
  await renderWithPortico(<Footer />);

  expect(screen.getByText('Problems: none')).toBeInTheDocument();
  expect(screen.getByText('Company Name: Portico Credit')).toBeInTheDocument();
});

test('outside the provider the hooks say what is wrong', () => {
  // React reports the error it rethrows; keep the test output to the assertion.
  jest.spyOn(console, 'error').mockImplementation(() => {});

  expect(() => render(<Footer />)).toThrow(/Portico context is missing: render inside <PorticoProvider>/);
});
