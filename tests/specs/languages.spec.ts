import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { serverStoresMessages } from '../support/contact-api';
import { expect, serve, siteRemotes, test, workerPorts, writeConfig } from '../support/fixtures';
import { installClock, stopClock } from '../support/page-clock';

/**
 * The text packs a page fetches, by chunk name: the host's (`text-id`) from
 * the host, each section's own (`contact-text-id`) from its remote; through
 * the islands' entry, as `islands-text-id` and `island-contact-text-id`.
 */
function watchPacks(page: Page): string[] {
  const packs: string[] = [];
  page.on('request', (request) => {
    const pack = /\/(?:islands?-)?((?:home-|about-|contact-)?text-(?:en|id))\.[0-9a-f]+\.js$/.exec(request.url())?.[1];
    if (pack) packs.push(pack);
  });
  return packs;
}

test('?type=2 shows the whole page in Indonesian, in rupiah, with lang="id", and fetches only that language\'s packs', async ({ page, site }) => {
  const packs = watchPacks(page);
  await page.goto(`${site.url}/?type=2`);

  await expect(page.locator('html')).toHaveAttribute('lang', 'id');
  const tabs = page.getByRole('navigation').getByRole('tab');
  await expect(tabs).toHaveText(['Beranda', 'Tentang Kami', 'Hubungi Kami']);
  const home = page.getByRole('tabpanel', { name: 'Beranda' });
  await expect(home.getByRole('heading', { level: 2 })).toHaveText('Pinjaman pribadi dalam tiga langkah');
  // Intl's rupiah: dots between thousands, a no-break space after Rp, no ",00".
  await expect(home).toContainText(/Pinjam mulai Rp\s1\.000\.000 hingga Rp\s15\.000\.000, cair ke rekening bank Anda dalam 2 jam\./);
  await expect(home).toContainText(/gaji tahunan Rp\s5\.000\.000 atau lebih/);
  await expect(home).not.toContainText(',00');
  const footer = page.getByRole('contentinfo');
  for (const label of ['Nama Perusahaan', 'Email Kontak', 'Alamat Kontak']) await expect(footer).toContainText(label);
  // Indonesia's own office and line (the default config.json's byMarket.ID), never the Indian one.
  await expect(footer).toContainText('Jl. Jenderal Sudirman Kav. 1, Jakarta 10220, Indonesia');
  await expect(footer.getByRole('link', { name: 'dukungan@portico.example' })).toBeVisible();
  await expect(footer).toContainText('Hak cipta dilindungi undang-undang.');
  await expect(footer).not.toContainText('Bengaluru');
  // The sections were rendered by the server: no pack is fetched but an island's (Contact's, fetched ahead when idle, then used), and only in this language.
  await page.getByRole('tab', { name: 'Hubungi Kami' }).click();
  await expect.poll(() => [...new Set(packs)].sort()).toEqual(['contact-text-id', 'text-id']);
});

test('no type, ?type=1 and an unknown type are English, in rupees, with lang="en-IN"', async ({ page, site }) => {
  for (const query of ['', '?type=1', '?type=9']) {
    const packs = watchPacks(page);
    await page.goto(`${site.url}/${query}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-IN');
    await expect(page.getByRole('navigation').getByRole('tab')).toHaveText(['Home', 'About Us', 'Contact us']);
    const home = page.getByRole('tabpanel', { name: 'Home' });
    await expect(home).toContainText('Borrow from ₹2,000 to ₹80,000, in your bank account within 2 hours.');
    await expect(home).toContainText('For salaried applicants earning ₹12,000 or more a month.');
    await expect(home).toContainText('Trusted by over 3 million users.');
    await expect(page.getByRole('contentinfo')).toContainText('12 MG Road, Bengaluru 560001, India');
    await expect(page.getByRole('contentinfo')).not.toContainText('Jakarta');
    await page.getByRole('tab', { name: 'Contact us' }).click();
    await expect.poll(() => [...new Set(packs)].sort(), query).toEqual(['contact-text-en', 'text-en']);
    page.removeAllListeners('request');
  }
});

test('in Indonesian the contact form speaks Indonesian, toasts and privacy note included', async ({ page, site }) => {
  await serverStoresMessages(page);
  await installClock(page);
  await page.goto(`${site.url}/?type=2#contact`);
  const send = page.getByRole('button', { name: 'Kirim pesan' });
  // Stopped, so each 1 s toast is there for as long as its check takes.
  await stopClock(page, send);
  await send.click();
  await expect(page.getByRole('alert')).toHaveText('Mohon lengkapi semua data!');

  await page.getByLabel('Nama').fill('Budi');
  await page.getByLabel('Nomor telepon').fill('0812 3456 7890');
  await page.getByLabel('Pesan').fill('Kapan saya bisa mengajukan?');
  await page.clock.runFor(1000);
  await send.click();
  await expect(page.getByRole('status')).toHaveText('Berhasil dikirim!');
  await expect(page.getByRole('tabpanel', { name: 'Hubungi Kami' })).toContainText(
    'Kami menyimpan nama, nomor telepon, pesan, bahasa, dan waktu pengiriman Anda hanya untuk menjawab Anda, lalu menghapusnya setelah 180 hari.',
  );
});

test('the language switch keeps the section, the other parameters and what was typed; Back returns', async ({ page, site }) => {
  await page.goto(`${site.url}/?campaign=spring#contact`);
  await page.getByLabel('Name').fill('Asha');

  await page.getByRole('group', { name: 'Language' }).getByRole('link', { name: 'Bahasa Indonesia' }).click();

  await expect(page.getByRole('tab', { name: 'Hubungi Kami' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('html')).toHaveAttribute('lang', 'id');
  const url = new URL(page.url());
  expect(url.search).toBe('?campaign=spring&type=2');
  expect(url.hash).toBe('#contact');
  // The page in Indonesian came from the server (static sections have no code to re-render); the field was filled in again.
  await expect(page.getByLabel('Nama')).toHaveValue('Asha');
  await expect(page.getByRole('link', { name: 'Bahasa Indonesia' })).toHaveAttribute('aria-current', 'true');

  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Contact us' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-IN');
  expect(new URL(page.url()).search).toBe('?campaign=spring');
});

test('a section that cannot load speaks Indonesian, its reason included; an invalid field shows nothing; an unreadable config.json is explained in Indonesian', async ({
  page,
}, testInfo) => {
  const basePort = workerPorts(testInfo.parallelIndex, 6);
  // A manifest that is not there (404): the About section cannot load, at once (no retries to wait out).
  const configPath = writeConfig(basePort, {
    email: 42,
    remotes: { ...siteRemotes(basePort), about: `http://localhost:${basePort + 2}/gone/mf-manifest.json` },
  });
  const site = await serve(basePort, configPath);
  try {
    await page.goto(`${site.url}/?type=2#about`);
    const about = page.getByRole('tabpanel', { name: 'Tentang Kami' });
    await expect(about.getByRole('alert')).toHaveText(
      'Bagian Tentang Kami tidak dapat dimuat.Keterangan bagian ini tidak dapat diambil dari servernya, atau tidak sah.Coba lagi',
    );
    await expect(about.getByRole('button', { name: 'Coba lagi' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('Email KontakBelum diatur');
    await expect(page.getByRole('complementary')).toHaveCount(0);

    writeFileSync(configPath, '{ "comName": ');
    await page.reload();
    await expect(page.getByRole('complementary', { name: 'Konfigurasi' })).toContainText('belum dikonfigurasi sepenuhnya');
  } finally {
    await site.close();
  }
});
