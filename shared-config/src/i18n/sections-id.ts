import type { TextPack } from './text-pack';

/**
 * The host's texts around a section in Indonesian (Indonesia): its loading line, its alert
 * and the notices naming it. A module of its own so that a script showing
 * only these (the page script's alert when the host's code fails to load)
 * carries nothing else of the pack.
 */
export const sectionsId: TextPack['sections'] = {
  loading: 'Memuat {section}…',
  failed: 'Bagian {section} tidak dapat dimuat.',
  reasons: {
    timeout: 'Bagian ini tidak tiba tepat waktu; koneksi atau servernya mungkin lambat.',
    integrity: 'Berkas bagian ini bukan versi yang disetujui situs ini, sehingga tidak dijalankan.',
    manifest: 'Keterangan bagian ini tidak dapat diambil dari servernya, atau tidak sah.',
    entry: 'Kode bagian ini tidak dapat diambil atau dijalankan.',
    chunk: 'Sebagian kode bagian ini tidak dapat diambil.',
    render: 'Terjadi kesalahan saat bagian ini menampilkan isinya.',
  },
  tryAgain: 'Coba lagi',
  override: 'Mode uji (override): bagian {section} dimuat dari {url}, hanya untuk kunjungan ini.',
  overrideLabel: 'Mode uji (override)',
  preview:
    'Pratinjau rilis (preview): bagian {section} adalah rilis {release} (build {build}), hanya untuk kunjungan ini; pengunjung mendapatkan rilis yang aktif. Tautan berlaku hingga {expires}.',
  previewLabel: 'Pratinjau rilis (preview)',
  previewExpired: 'Tautan pratinjau rilis (preview) ini sudah kedaluwarsa: Anda melihat situs yang sedang berjalan.',
  previewInvalid: 'Tautan pratinjau rilis (preview) ini tidak sah: Anda melihat situs yang sedang berjalan.',
};
