import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Popup, type PopupProps } from '../popup';

function renderPopup(props: Partial<PopupProps> = {}) {
  const changes: boolean[] = [];
  const view = render(
    <>
      <Popup label="Menu" onOpenChange={(open) => changes.push(open)} {...props}>
        <button type="button">Repay</button>
      </Popup>
      <button type="button">Elsewhere</button>
    </>,
  );
  const target = screen.getByRole('button', { name: 'Menu' });
  // The mask is decoration (aria-hidden) with no role to find it by; it is
  // what a visitor presses when pressing "outside" a masked popup.
  const mask = () => view.container.querySelector<HTMLElement>('.portico-popup__mask');
  return { target, changes, mask };
}

test('starts hidden, with a target that says so and names the popup it controls', () => {
  const { target } = renderPopup();

  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(target).toHaveAttribute('aria-expanded', 'false');
  const controlled = document.getElementById(target.getAttribute('aria-controls') ?? '');
  expect(controlled).not.toBeNull();
  expect(controlled).not.toBeVisible();
});

test('clicking the target shows the popup, clicking it again hides it', async () => {
  const user = userEvent.setup();
  const { target, changes } = renderPopup();

  await user.click(target);
  const popup = screen.getByRole('dialog', { name: 'Menu' });
  expect(popup).toBeVisible();
  expect(popup).toHaveAttribute('id', target.getAttribute('aria-controls'));
  expect(target).toHaveAttribute('aria-expanded', 'true');

  await user.click(target);
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(target).toHaveAttribute('aria-expanded', 'false');
  expect(changes).toEqual([true, false]);
});

test('without a mask, a press outside closes it and a press inside does not', async () => {
  const user = userEvent.setup();
  const { target, mask } = renderPopup();
  await user.click(target);
  expect(mask()).toBeNull();

  await user.click(screen.getByRole('button', { name: 'Repay' }));
  expect(screen.getByRole('dialog', { name: 'Menu' })).toBeVisible();

  await user.click(screen.getByRole('button', { name: 'Elsewhere' }));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

test('with a closable mask, pressing the mask closes it', async () => {
  const user = userEvent.setup();
  const { target, mask } = renderPopup({ mask: true });
  await user.click(target);
  const shown = mask();
  expect(shown).not.toBeNull();

  await user.click(shown as HTMLElement);

  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(mask()).toBeNull();
});

test('with a mask that is not closable, pressing outside leaves it open; Escape still closes it', async () => {
  const user = userEvent.setup();
  const { target, mask } = renderPopup({ mask: true, maskClosable: false });
  await user.click(target);

  await user.click(mask() as HTMLElement);
  await user.click(document.body);
  expect(screen.getByRole('dialog', { name: 'Menu' })).toBeVisible();

  await user.keyboard('{Escape}');
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

test('Escape closes it and gives focus back to the target, even from inside the popup', async () => {
  const user = userEvent.setup();
  const { target, changes } = renderPopup();
  await user.click(target);
  await user.click(screen.getByRole('button', { name: 'Repay' }));
  expect(screen.getByRole('button', { name: 'Repay' })).toHaveFocus();

  await user.keyboard('{Escape}');

  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  expect(target).toHaveFocus();
  expect(changes).toEqual([true, false]);
});

test('other keys leave it open, and closing it twice reports it once', async () => {
  const user = userEvent.setup();
  const { target, changes } = renderPopup({ defaultOpen: true });
  expect(screen.getByRole('dialog', { name: 'Menu' })).toBeVisible();

  await user.keyboard('{Enter}a');
  expect(screen.getByRole('dialog', { name: 'Menu' })).toBeVisible();

  await user.keyboard('{Escape}');
  await user.keyboard('{Escape}');
  await user.click(document.body);
  expect(changes).toEqual([false]);
  expect(target).toHaveAttribute('aria-expanded', 'false');
});

test('works from the keyboard: Enter on the target opens it', async () => {
  const user = userEvent.setup();
  const { target } = renderPopup({ className: 'account-menu' });

  await user.tab();
  expect(target).toHaveFocus();
  await user.keyboard('{Enter}');

  expect(screen.getByRole('dialog', { name: 'Menu' })).toBeVisible();
  expect(target.parentElement).toHaveClass('portico-popup', 'account-menu');
});
