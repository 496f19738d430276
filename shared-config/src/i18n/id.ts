import type { TextPack } from './text-pack';

/**
 * Indonesian, Indonesia. Figures from the specification's type 2 pack: loans
 * of Rp 1.000.000 to Rp 15.000.000 within 2 hours, for an ANNUAL pay of
 * Rp 5.000.000 or more (India's income figure is monthly). That pack makes
 * no user-count claim, so this one makes none either.
 */
export const id: TextPack = {
  locale: 'id',
  money: { currency: 'IDR', loanMin: 1_000_000, loanMax: 15_000_000, minIncome: 5_000_000 },
  nav: { label: 'Bagian', tabs: { home: 'Beranda', about: 'Tentang Kami', contact: 'Hubungi Kami' } },
  skipLink: 'Langsung ke konten',
  languageSwitch: { label: 'Bahasa' },
  home: {
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
  },
  about: {
    heading: 'Tentang Kami',
    body: '{company} menyediakan pinjaman pribadi jangka pendek bagi karyawan, dengan pengajuan online yang mudah dan ketentuan yang jelas.',
    unnamedCompany: 'Pemberi pinjaman ini',
    legal: {
      heading: 'Informasi perusahaan',
      companyName: 'Nama badan hukum',
      registrationNumber: 'Nomor registrasi',
      licenceNumber: 'Nomor izin',
      registeredAddress: 'Alamat terdaftar',
      website: 'Situs web',
      phone: 'Telepon',
    },
    grievance: {
      heading: 'Pengaduan',
      intro: 'Untuk pengaduan tentang pinjaman atau tentang layanan kami, hubungi petugas penanganan pengaduan kami:',
      name: 'Petugas pengaduan',
      email: 'Email',
      phone: 'Telepon',
    },
    regulator: {
      rbiComplaint:
        'Jika pengaduan Anda tidak terselesaikan dalam 30 hari, atau Anda tidak puas dengan tanggapannya, Anda dapat meneruskannya ke Reserve Bank of India melalui Complaint Management System di {link}.',
      ojkLicensed: '{company} berizin dan diawasi oleh Otoritas Jasa Keuangan (OJK).',
      ojkContact: 'Anda juga dapat menghubungi layanan konsumen OJK: telepon {phone} atau kunjungi {link}.',
    },
  },
  contact: {
    heading: 'Hubungi Kami',
    intro: 'Tinggalkan nama, nomor telepon, dan pertanyaan Anda.',
    privacy: 'Apa yang Anda ketik di sini tetap berada di browser Anda: formulir ini tidak mengirimkannya ke mana pun.',
    thanks: 'Terima kasih, {name}. Pesan Anda hanya tercatat di halaman ini dan tidak dikirim ke mana pun.',
    name: 'Nama',
    telephone: 'Nomor telepon',
    message: 'Pesan',
    send: 'Kirim pesan',
    required: 'Mohon isi kolom ini.',
    incomplete: 'Mohon lengkapi semua data!',
    success: 'Berhasil dikirim!',
  },
  footer: {
    companyName: 'Nama Perusahaan',
    email: 'Email Kontak',
    address: 'Alamat Kontak',
    notConfigured: 'Belum diatur',
  },
  sections: {
    loading: 'Memuat {section}…',
    failed: 'Bagian {section} tidak dapat dimuat.',
    tryAgain: 'Coba lagi',
    override: 'Mode uji (override): bagian {section} dimuat dari {url}, hanya untuk kunjungan ini.',
  },
  configProblem:
    'Situs ini belum dikonfigurasi sepenuhnya, sehingga beberapa detail tidak ditampilkan. Kolom yang perlu diperbaiki (penjelasannya ada di konsol browser):',
  configNoticeLabel: 'Konfigurasi',
};
