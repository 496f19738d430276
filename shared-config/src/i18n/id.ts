import { sectionsId } from './sections-id';
import type { TextPack } from './text-pack';

/** The host's texts in Indonesian (Indonesia). */
export const id: TextPack = {
  siteName: 'Pinjaman pribadi',
  metaDescription: 'Pinjaman pribadi instan untuk karyawan bergaji: ajukan secara online, verifikasi identitas Anda, dan terima dananya di rekening bank Anda.',
  nav: { label: 'Bagian', tabs: { home: 'Beranda', about: 'Tentang Kami', contact: 'Hubungi Kami' } },
  skipLink: 'Langsung ke konten',
  languageSwitch: { label: 'Bahasa' },
  footer: {
    companyName: 'Nama Perusahaan',
    email: 'Email Kontak',
    address: 'Alamat Kontak',
    lender: 'Pemberi Pinjaman',
    notConfigured: 'Belum diatur',
    privacy: {
      summary: 'Privasi: apa yang diukur situs ini',
      measurement:
        'Saat Anda meninggalkan halaman, halaman mengirim laporan anonim tentang cara bagian-bagiannya dimuat dan seberapa cepat halaman itu (Core Web Vitals). Laporan tidak berisi nama, alamat, atau apa pun yang mengenali Anda, hanya nomor sekali pakai yang diberikan server kami untuk pemuatan halaman itu, yang disimpan sampai kedaluwarsa (satu jam) agar laporan terhitung satu kali; yang disimpan hanya jumlah total per rilis dan per jam, selama 30 hari kecuali operator mengaturnya lain.',
      address:
        'Agar tidak ada yang membanjiri hitungan ini, setiap server kami menghitung paling banyak 30 laporan dari satu alamat jaringan dalam 10 menit (dengan beberapa server, batasnya berlipat sebanyak itu). Selama versi baru sebuah bagian dicoba, laporan yang menentukannya juga dihitung per jaringan, agar tidak ada satu jaringan pun yang dapat menentukannya sendiri: jaringan itu hanya disimpan sebagai kode berkunci yang tidak dapat diubah kembali menjadi alamatnya, hanya untuk uji coba itu, dan dihapus saat uji coba berakhir. Ini termasuk pemrosesan data pribadi menurut UU DPDP India dan UU PDP Indonesia, meskipun alamat itu sendiri hanya disimpan di memori selama beberapa menit dan tidak pernah disimpan permanen.',
      cookie:
        'Selama versi baru sebuah bagian dicoba pada sebagian pengunjung, situs ini memasang satu cookie, portico_cohort, yang hanya berisi angka acak dari 0 sampai 99, agar Anda melihat versi yang sama di setiap kunjungan. Cookie ini berlaku 30 hari. Pesan yang dikirim lewat formulir kontak diatur oleh catatan di sebelahnya.',
    },
  },
  sections: sectionsId,
  configProblem:
    'Situs ini belum dikonfigurasi sepenuhnya, sehingga beberapa detail tidak ditampilkan. Konfigurasinya tidak dapat dibaca (penjelasannya ada di konsol browser):',
  configNoticeLabel: 'Konfigurasi',
};
