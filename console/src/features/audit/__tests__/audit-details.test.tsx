import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeControlApi, release, sectionStatus, session, signedInBefore } from '../../../__tests__/fake-control-api';
import { ConsoleApp } from '../../../app/console-app';

// Issue 49: the server wrote an activation's detail in English ("already
// active", "ended the canary of …"), which an Indonesian console showed as
// written. It now sends the facts beside the detail and the console words
// them; a note a person typed stays as typed, marked so; an entry from
// before the facts shows its detail. Checked: the Indonesian cells fail
// without the facts (the English detail is shown).
jest.setTimeout(30_000);

const entry = (action: string, fields: Record<string, unknown>) => ({
  at: '2026-11-26T09:00:00.000Z',
  actor: 'ana',
  action,
  section: 'contact',
  release: 'contact-8',
  from: 'contact-7',
  detail: '',
  ...fields,
});

async function openAudit() {
  fakeControlApi({
    'GET /api/session': session(['releases']),
    'GET /api/sections': { body: { contact: sectionStatus(release('contact-8', 'active')) } },
    'GET /api/servers': { body: [] },
    'GET /api/audit': {
      body: [
        entry('activate', {
          detail: 'ended the canary of contact-8 (10 % of visits); hotfix for the form',
          facts: { kind: 'activate', again: false, endedCanary: { release: 'contact-8', percent: 10 } },
          note: 'hotfix for the form',
        }),
        entry('rollback', { release: null, detail: "back to config.json's URL: no release is active", facts: { kind: 'rollback' } }),
        entry('activate', { release: 'contact-6', from: null, detail: 'the first one, written before the facts' }),
      ],
    },
  });
  window.location.hash = '#/audit';
  signedInBefore();
  render(<ConsoleApp />);
  return { table: within(await screen.findByRole('table', { name: 'Audit' })), user: userEvent.setup() };
}

it("words an activation's detail in the console's language, the typed note as typed, an older entry as written", async () => {
  const { user } = await openAudit();
  await user.click(screen.getByRole('button', { name: 'Bahasa Indonesia' }));
  const table = within(await screen.findByRole('table', { name: 'Audit' }));
  expect(
    table.getByRole('cell', {
      name: 'contact-8 menggantikan contact-7; mengakhiri canary contact-8 (10 % kunjungan); catatan, seperti diketik: “hotfix for the form”',
    }),
  ).toBeInTheDocument();
  expect(table.getByRole('cell', { name: 'Kembali ke URL di config.json dari contact-7: tidak ada rilis yang aktif' })).toBeInTheDocument();
  expect(table.getByRole('cell', { name: 'the first one, written before the facts' })).toBeInTheDocument();
  expect(table.queryByText(/ended the canary/)).not.toBeInTheDocument();
});

it('says the same facts in English', async () => {
  const { table } = await openAudit();
  expect(
    table.getByRole('cell', { name: 'contact-8 replaces contact-7; ended the canary of contact-8 (10 % of visits); note, as typed: “hotfix for the form”' }),
  ).toBeInTheDocument();
});
