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

/** The console signed in on its Audit page, the API answering `entries`: the table and a user. */
async function openAuditWith(entries: ReturnType<typeof entry>[]) {
  fakeControlApi({
    'GET /api/session': session(['releases']),
    'GET /api/sections': { body: { contact: sectionStatus(release('contact-8', 'active')) } },
    'GET /api/servers': { body: [] },
    'GET /api/audit': { body: entries },
  });
  window.location.hash = '#/audit';
  signedInBefore();
  render(<ConsoleApp />);
  return { table: within(await screen.findByRole('table', { name: 'Audit' })), user: userEvent.setup() };
}

function openAudit() {
  return openAuditWith([
    entry('activate', {
      detail: 'ended the canary of contact-8 (10 % of visits); hotfix for the form',
      facts: { kind: 'activate', again: false, endedCanary: { release: 'contact-8', percent: 10 } },
      note: 'hotfix for the form',
    }),
    entry('rollback', { release: null, detail: "back to config.json's URL: no release is active", facts: { kind: 'rollback' } }),
    entry('activate', { release: 'contact-6', from: null, detail: 'the first one, written before the facts' }),
  ]);
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

// Issue 49, the rest of the kinds: a canary's start with its thresholds, the
// judge's rollback with its figures, a section change and a refused publish
// are worded from their facts; a check's reason stays as the check wrote it.
// An entry whose facts are of a kind this console does not know (a later
// server's) shows its detail, and the page still loads. Checked: each cell
// fails without fact-words.ts (the English detail is shown), and the unknown
// kind failed the whole page (the answer did not match the schema) before
// `facts` caught it.
const thresholds = { minVisits: 200, maxFailureDelta: 0.02, maxSlowdown: 0.25, promoteAfterVisits: null, minNetworks: 3, maxNetworkShare: 0.5 };

async function openLaterAudit(indonesian = true) {
  const { user } = await openAuditWith([
    entry('canary', {
      detail: '10 % of visits; judged from 200 visits: …',
      facts: { kind: 'canary', percent: 10, thresholds, againstConfig: false },
    }),
    entry('auto-rollback', {
      actor: 'canary-judge',
      detail: 'contact-8 is worse than contact-7: its failure rate past the threshold — candidate contact-8: …',
      facts: {
        kind: 'abort',
        percent: 10,
        startedAt: '2026-11-26T08:00:00.000Z',
        judged: {
          visits: 240,
          failureRate: 0.125,
          activeVisits: 2100,
          activeFailureRate: 0.01,
          slower: [{ vital: 'lcpP75', by: 0.417 }],
        },
      },
    }),
    entry('section-change', {
      release: null,
      from: null,
      detail: 'from interactive (script in the browser) to static (no script in the browser), hidden, release policy from "activate" to "publish" (…)',
      facts: {
        kind: 'section-change',
        changes: [
          { field: 'grant', from: true, interactive: false },
          { field: 'hidden', hidden: true },
          { field: 'policy', from: 'activate', to: 'publish' },
        ],
      },
    }),
    entry('publish-refused', {
      release: null,
      from: null,
      detail: 'https://cdn.example.com/contact/mf-manifest.json: integrity: the bytes differ from the manifest; 2 not run',
      facts: {
        kind: 'publish-refused',
        manifestUrl: 'https://cdn.example.com/contact/mf-manifest.json',
        failed: [{ check: 'integrity', reason: 'the bytes differ from the manifest' }],
        notRun: 2,
      },
    }),
    entry('section-add', {
      section: 'team-faq',
      release: null,
      from: null,
      detail: 'added "FAQ" / "Tanya Jawab", after about, static (no script in the browser), origins https://faq.example, markets IN ID',
      facts: {
        kind: 'section-add',
        labels: { en: 'FAQ', id: 'Tanya Jawab' },
        after: 'about',
        interactive: false,
        origins: ['https://faq.example'],
        markets: ['IN', 'ID'],
      },
    }),
    entry('publish-refused', {
      release: null,
      from: null,
      detail: '12 publishes of contact refused with 429 from … to …, unchecked: the token was over its limit of 10 refused publishes in 10 minutes',
      facts: {
        kind: 'publish-held',
        count: 12,
        sections: ['contact'],
        from: '2026-11-26T08:00:00.000Z',
        to: '2026-11-26T08:05:00.000Z',
        limit: { max: 10, minutes: 10 },
      },
    }),
    entry('promote', { detail: 'promoted by a later server, in its words', facts: { kind: 'promote-later', figures: [1, 2] } }),
  ]);
  if (indonesian) await user.click(screen.getByRole('button', { name: 'Bahasa Indonesia' }));
  return within(await screen.findByRole('table', { name: 'Audit' }));
}

it("words a canary's start, the judge's rollback, a section change and a refused publish in Indonesian; a later server's kind as written", async () => {
  const table = await openLaterAudit();
  expect(
    table.getByRole('cell', {
      name:
        'Canary contact-8: 10 % kunjungan, dinilai terhadap contact-7; dinilai dari 200 kunjungan: dibatalkan bila tingkat kegagalannya melebihi rilis aktif ' +
        'lebih dari 2 poin atau LCP atau INP-nya lebih lambat lebih dari 25 %; hanya dipromosikan secara manual; ' +
        'ditentukan dari sedikitnya 3 jaringan, tidak satu pun lebih dari 50 % hitungan',
    }),
  ).toBeInTheDocument();
  expect(
    table.getByRole('cell', {
      name:
        'Canary contact-8 diakhiri (10 % kunjungan sejak 26 Nov 2026, 08.00 UTC): setiap kunjungan mendapatkan contact-7; ' +
        'penilai membaca 12,5 % dari 240 kunjungan gagal, dibandingkan 1 % dari 2.100 untuk contact-7; p75 LCP 41,7 % lebih lambat',
    }),
  ).toBeInTheDocument();
  expect(
    table.getByRole('cell', {
      name:
        'Diubah: dari interaktif (skrip di peramban) menjadi statis (tanpa skrip di peramban), disembunyikan dari navigasi, ' +
        'kebijakan rilis dari “Semuanya, termasuk aktivasi” menjadi “Terbitkan dan pratinjau”',
    }),
  ).toBeInTheDocument();
  // The frame in Indonesian, the check's id listed, its reason as the check wrote it.
  expect(
    table.getByRole('cell', {
      name:
        'Penerbitan https://cdn.example.com/contact/mf-manifest.json ditolak: pemeriksaan integrity gagal; ' +
        'integrity: the bytes differ from the manifest; 2 tidak dijalankan setelah kegagalan sebelumnya',
    }),
  ).toBeInTheDocument();
  expect(
    table.getByRole('cell', {
      name: 'Ditambahkan “FAQ / Tanya Jawab”, setelah about di navigasi, statis (tanpa skrip di peramban); asal: https://faq.example; pasar: IN ID',
    }),
  ).toBeInTheDocument();
  expect(
    table.getByRole('cell', {
      name:
        '12 publikasi contact ditolak dengan 429 dari 26 Nov 2026, 08.00 UTC sampai 26 Nov 2026, 08.05 UTC, tanpa diperiksa: ' +
        'token melewati batasnya, 10 publikasi ditolak dalam 10 menit',
    }),
  ).toBeInTheDocument();
  expect(table.getByRole('cell', { name: 'promoted by a later server, in its words' })).toBeInTheDocument();
});

it('says the same kinds in English, the judge naming the vital past its threshold', async () => {
  const table = await openLaterAudit(false);
  expect(
    table.getByRole('cell', {
      name:
        'Canary of contact-8 ended (10 % of visits since 26 Nov 2026, 8:00 am UTC): every visit gets contact-7; ' +
        'the judge read 12.5 % of 240 visits failing, against 1 % of 2,100 for contact-7; p75 LCP 41.7 % slower',
    }),
  ).toBeInTheDocument();
  expect(
    table.getByRole('cell', {
      name: 'Publish of https://cdn.example.com/contact/mf-manifest.json refused: checks integrity failed; integrity: the bytes differ from the manifest; 2 not run after an earlier failure',
    }),
  ).toBeInTheDocument();
});
