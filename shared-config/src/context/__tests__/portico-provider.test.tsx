import { act, screen } from '@testing-library/react';
import { id } from '../../i18n/id';
import { loadPack } from '../../i18n/load-pack';
import type { TextPack } from '../../i18n/text-pack';
import { renderWithPortico } from '@portico/testing';
import { usePortico } from '../use-portico';

jest.mock('../../i18n/load-pack', () => {
  const actual = jest.requireActual<typeof import('../../i18n/load-pack')>('../../i18n/load-pack');
  return { loadPack: jest.fn(actual.loadPack) };
});

function Probe() {
  const { language, text, switchLanguage } = usePortico();
  return (
    <>
      <p>{`${language}: ${text.nav.tabs.home}`}</p>
      <button type="button" onClick={() => void switchLanguage('id')}>
        id
      </button>
      <button
        type="button"
        onClick={() => {
          void switchLanguage('id');
          void switchLanguage('en');
        }}
      >
        id then en
      </button>
    </>
  );
}

test('renders in the language it is given, with that pack', async () => {
  await renderWithPortico(<Probe />, { language: 'id' });
  expect(screen.getByText('id: Beranda')).toBeVisible();
});

test('switchLanguage loads the pack, then the whole tree re-renders in it', async () => {
  await renderWithPortico(<Probe />);
  expect(screen.getByText('en: Home')).toBeVisible();
  await act(async () => screen.getByRole('button', { name: 'id' }).click());
  expect(await screen.findByText('id: Beranda')).toBeVisible();
});

test('when switches overlap, the last one asked for wins, even if an earlier pack arrives later', async () => {
  let deliverIndonesian: (pack: TextPack) => void = () => {};
  await renderWithPortico(<Probe />);
  jest.mocked(loadPack).mockImplementationOnce(() => new Promise((resolve) => (deliverIndonesian = resolve)));

  await act(async () => screen.getByRole('button', { name: 'id then en' }).click());
  await act(async () => deliverIndonesian(id));

  expect(screen.getByText('en: Home')).toBeVisible();
});
