import type { AboutText } from './about-text';

/** The about section's texts in Indonesian (Indonesia). */
export const id: AboutText = {
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
};
