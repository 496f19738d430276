import type { CalculatorText } from './calculator-text';

/** The calculator's texts in Indonesian (Indonesia). */
export const id: CalculatorText = {
  heading: 'Kalkulator pengembalian',
  illustrative:
    'Angka ilustrasi, bukan penawaran: bunga {rate} per hari dan biaya administrasi {fee}. Ketentuan pinjaman Anda sendiri tercantum dalam perjanjian pinjaman Anda.',
  amount: {
    label: 'Jumlah pinjaman',
    hint: 'Dari {min} hingga {max}.',
    empty: 'Masukkan jumlah pinjaman.',
    notNumber: 'Masukkan jumlah pinjaman dalam rupiah penuh, hanya angka, misalnya {example}.',
    outOfRange: 'Masukkan jumlah pinjaman dari {min} hingga {max}.',
  },
  days: {
    label: 'Jangka waktu (hari)',
    hint: 'Dari {min} hingga {max} hari.',
    empty: 'Masukkan jangka waktu dalam hari.',
    notNumber: 'Masukkan jangka waktu dalam bilangan bulat hari, misalnya {example}.',
    outOfRange: 'Masukkan jangka waktu dari {min} hingga {max} hari.',
  },
  interest: 'Bunga',
  fees: 'Biaya',
  total: 'Total pengembalian',
};
