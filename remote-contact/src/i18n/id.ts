import type { ContactText } from './contact-text';

/** The contact section's texts in Indonesian (Indonesia). */
export const id: ContactText = {
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
};
