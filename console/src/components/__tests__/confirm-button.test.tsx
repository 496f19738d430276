import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeControlApi, session, signedInBefore } from '../../__tests__/fake-control-api';
import { ConsoleApp } from '../../app/console-app';
import { ConfirmButton } from '../confirm-button';

// Issue 49: confirmations opened on "Confirm" (an Enter by habit went ahead), Escape left them open, and revoking
// your own or the owner's token read like any other revoke. (Checked: each test here fails with the hand-written dialog.)

function renderButton() {
  const onConfirm = jest.fn();
  render(<ConfirmButton label="Roll back" question="Every visitor of Contact us will get contact-1 instead of contact-2. Roll back?" onConfirm={onConfirm} />);
  return { onConfirm, user: userEvent.setup() };
}

describe('a confirmation', () => {
  it('opens on Cancel, the choice that changes nothing: Enter then confirms nothing', async () => {
    const { onConfirm, user } = renderButton();
    await user.click(screen.getByRole('button', { name: 'Roll back' }));
    const dialog = screen.getByRole('dialog', { name: 'Roll back' });
    expect(dialog).toHaveAccessibleDescription('Every visitor of Contact us will get contact-1 instead of contact-2. Roll back?');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    // Focus goes back to the button that opened it (on the next frame).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Roll back' })).toHaveFocus());
  });

  it('closes on Escape without acting', async () => {
    const { onConfirm, user } = renderButton();
    await user.click(screen.getByRole('button', { name: 'Roll back' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('acts once confirmed, and only then', async () => {
    const { onConfirm, user } = renderButton();
    await user.click(screen.getByRole('button', { name: 'Roll back' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe("revoking a token that isn't like the others", () => {
  const token = (name: string, owner = false) => ({
    name,
    section: null,
    scopes: ['releases'],
    createdAt: '2026-11-26T09:00:00.000Z',
    createdBy: 'server',
    owner,
  });

  async function openTokens() {
    fakeControlApi({
      'GET /api/session': session(['releases', 'messages'], 'ana'),
      'GET /api/sections': { body: {} },
      'GET /api/tokens': { body: [token('owner', true), token('ana'), token('ci-home')] },
      'POST /api/tokens': { status: 201, body: { name: 'ci-about', section: null, scopes: ['releases'], token: 'x'.repeat(43) } },
    });
    window.location.hash = '#/tokens';
    signedInBefore();
    render(<ConsoleApp />);
    return userEvent.setup();
  }

  it("says first that your own token ends your session, and that the owner's is the install's", async () => {
    const user = await openTokens();
    await user.click(await screen.findByRole('button', { name: 'Revoke ana' }));
    expect(screen.getByRole('dialog', { name: 'Revoke ana' })).toHaveAccessibleDescription(
      /^This is the token you are signed in with: revoking it ends your session at once, here and on every server\. Anyone using ana/,
    );
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Revoke owner' }));
    expect(screen.getByRole('dialog', { name: 'Revoke owner' })).toHaveAccessibleDescription(/^This is the owner token, written to the data folder/);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Revoke ci-home' }));
    expect(screen.getByRole('dialog', { name: 'Revoke ci-home' })).toHaveAccessibleDescription('Anyone using ci-home will be refused from now on. Revoke it?');
  });

  it('names the copy button "Copy the new token", not "Copy The new token"', async () => {
    const user = await openTokens();
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'ci-about');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('button', { name: 'Copy the new token' })).toBeInTheDocument();
  });
});
