import type { HomeText } from './home-text';

/**
 * The home section's texts in Indonesian (Indonesia). Figures from the
 * specification's type 2 pack: loans of Rp 1.000.000 to Rp 15.000.000 within
 * 2 hours, for an ANNUAL pay of Rp 5.000.000 or more (India's income figure
 * is monthly). That pack makes no user-count claim, so this one makes none
 * either.
 */
export const id: HomeText = {
  money: { currency: 'IDR', loanMin: 1_000_000, loanMax: 15_000_000, minIncome: 5_000_000 },
  heading: 'Pinjaman pribadi dalam tiga langkah',
  offer: 'Pinjam mulai {min} hingga {max}, cair ke rekening bank Anda dalam 2 jam.',
  eligibility: 'Untuk pemohon dengan gaji tahunan {income} atau lebih.',
  users: null,
  stepsHeading: 'Cara kerjanya',
  steps: [
    { title: 'Ajukan pinjaman', text: 'Pilih jumlah pinjaman dan tenor, dalam hari, yang sesuai untuk Anda.' },
    { title: 'Lengkapi verifikasi', text: 'Verifikasi identitas Anda dengan nama asli.' },
    { title: 'Konfirmasi pinjaman', text: 'Setelah Anda mengonfirmasi pinjaman, dana ditransfer ke rekening bank Anda.' },
  ],
  bannerAlt: 'Ponsel yang menampilkan pinjaman yang disetujui, dengan koin dan kalender di sampingnya',
};
