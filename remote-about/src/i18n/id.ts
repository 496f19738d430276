import type { AboutText } from './about-text';

/** The about section's texts in Indonesian: the Indonesia page. */
export const id: AboutText = {
  heading: 'Tentang Kami',
  body: '{company} menyediakan pinjaman pribadi jangka pendek bagi karyawan, dengan pengajuan online yang mudah dan ketentuan yang jelas.',
  unnamedCompany: 'Pemberi pinjaman ini',
  legal: {
    heading: 'Informasi perusahaan',
    companyName: 'Nama badan hukum',
    registrationNumber: 'Nomor Induk Berusaha (NIB)',
    licenceNumber: 'Nomor izin OJK',
    registeredAddress: 'Alamat terdaftar',
    association: 'Asosiasi industri',
    website: 'Situs web',
    phone: 'Telepon',
  },
  grievance: {
    heading: 'Pengaduan',
    intro: 'Sampaikan pengaduan tentang pinjaman atau tentang layanan kami lebih dulu kepada petugas penanganan pengaduan kami:',
    name: 'Petugas penanganan pengaduan',
    email: 'Email',
    phone: 'Telepon',
  },
  regulator: {
    licensed: '{company} berizin dan diawasi oleh Otoritas Jasa Keuangan (OJK).',
    escalation:
      'Jika pengaduan Anda tidak kami selesaikan atau Anda tidak puas dengan tanggapan kami, Anda dapat menyampaikannya ke layanan konsumen Otoritas Jasa Keuangan (OJK): telepon {phone} atau kunjungi {link}.',
  },
};
