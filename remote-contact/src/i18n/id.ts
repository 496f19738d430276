import type { ContactText } from './contact-text';

/** The contact section's texts in Indonesian (Indonesia). */
export const id: ContactText = {
  heading: 'Hubungi Kami',
  intro: 'Tinggalkan nama, nomor telepon, dan pertanyaan Anda.',
  privacy: 'Kami menyimpan nama, nomor telepon, pesan, bahasa, dan waktu pengiriman Anda hanya untuk menjawab Anda, lalu menghapusnya setelah {period}.',
  retentionPeriod: { one: '{days} hari', other: '{days} hari' },
  privacyDelete: 'Untuk meminta penghapusan lebih cepat, kirim email ke {email}.',
  privacyDeleteOfficer: 'Untuk meminta penghapusan lebih cepat, hubungi petugas pengaduan kami, {officer}, di {email}.',
  privacyDeleteHere: 'Untuk meminta penghapusan lebih cepat, sampaikan melalui formulir ini.',
  thanks: 'Terima kasih, {name}. Pesan Anda sudah kami terima, dan kami akan menghubungi Anda.',
  thanksWithoutName: 'Terima kasih. Pesan Anda sudah kami terima, dan kami akan menghubungi Anda.',
  name: 'Nama',
  telephone: 'Nomor telepon',
  message: 'Pesan',
  send: 'Kirim pesan',
  required: 'Mohon isi kolom ini.',
  incomplete: 'Mohon lengkapi semua data!',
  success: 'Berhasil dikirim!',
  trap: 'Biarkan kolom ini kosong',
  notSent: 'Pesan Anda belum terkirim.',
  retry: 'Coba lagi',
  delivery: {
    offline: 'Pesan Anda tidak dapat dikirim: server kami tidak dapat dihubungi. Periksa koneksi Anda, lalu coba lagi. Teks yang Anda ketik tetap ada.',
    timeout:
      'Pesan Anda tidak dapat dikirim: server kami tidak menjawab dalam satu menit. Teks yang Anda ketik tetap ada, dan mencoba lagi tidak akan mengirimkannya dua kali.',
    busy: 'Pesan Anda tidak dapat dikirim: server sedang sibuk. Teks yang Anda ketik tetap ada; silakan coba lagi sebentar lagi.',
    rateLimited:
      'Pesan Anda tidak dapat dikirim: terlalu banyak pesan dari koneksi Anda dalam waktu singkat. Tunggu {wait}, lalu coba lagi. Teks yang Anda ketik tetap ada.',
    waitAWhile: 'beberapa menit',
    invalidField:
      'Pesan Anda tidak dapat dikirim: server tidak menerima isi kolom {field}. Periksa kolom itu; paling banyak {limit} karakter. Teks yang Anda ketik tetap ada.',
    invalid: 'Pesan Anda tidak dapat dikirim: server tidak menerimanya. Teks yang Anda ketik tetap ada; silakan coba lagi nanti.',
    tooLong: 'Pesan Anda tidak dapat dikirim: pesannya terlalu panjang. Persingkat, lalu coba lagi. Teks yang Anda ketik tetap ada.',
    conflict: 'Versi sebelumnya dari pesan ini sudah kami terima. Untuk mengirim versi ini juga, tekan Coba lagi. Teks yang Anda ketik tetap ada.',
    refused: 'Pesan Anda tidak dapat dikirim: server menolaknya. Teks yang Anda ketik tetap ada; silakan coba lagi nanti.',
    unavailable: 'Pengiriman pesan tidak tersedia di situs ini, jadi pesan Anda tidak terkirim. Teks yang Anda ketik tetap ada.',
  },
};
