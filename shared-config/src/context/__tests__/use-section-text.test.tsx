import { renderWithPortico } from '@portico/testing';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createTextLoader } from '../../i18n/create-text-loader';
import { usePortico } from '../use-portico';
import { useSectionText } from '../use-section-text';

interface GreetingText {
  greeting: string;
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

function Greeting() {
  const { greeting } = useSectionText(loadGreeting);
  const [typed, setTyped] = useState('');
  const { switchLanguage } = usePortico();
  return (
    <>
      <h2>{greeting}</h2>
      <label>
        Name
        <input value={typed} onChange={(event) => setTyped(event.target.value)} />
      </label>
      <button type="button" onClick={() => void switchLanguage('id')}>
        Bahasa Indonesia
      </button>
    </>
  );
}

const indonesian = deferred<GreetingText>();
const loadGreeting = createTextLoader<GreetingText>({
  en: () => Promise.resolve({ greeting: 'Hello' }),
  id: () => indonesian.promise,
});

test("a section reads its own texts in the page's language, and keeps its state and its old texts until the new ones arrive", async () => {
  const user = userEvent.setup();
  await renderWithPortico(<Greeting />);
  expect(screen.getByRole('heading', { name: 'Hello' })).toBeVisible();

  await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Asha');
  await user.click(screen.getByRole('button', { name: 'Bahasa Indonesia' }));
  // Its language's chunk is still on the way: the page stays as it was.
  expect(screen.getByRole('heading', { name: 'Hello' })).toBeVisible();

  await act(async () => indonesian.resolve({ greeting: 'Halo' }));
  expect(await screen.findByRole('heading', { name: 'Halo' })).toBeVisible();
  expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Asha');
});
