import type { RuntimeConfig } from '@portico/shared-config';

/**
 * A complete config for a section's standalone page and for unit tests. Its
 * remote URLs are never fetched by a standalone page; its `legal` values are
 * made up and say so, in each market's language ("(sample)", "(contoh)").
 * The same as config-server's default config.json, but for the remotes and
 * its `byMarket` (each unit test that reads a market's details sets them).
 */
export const sampleConfig: RuntimeConfig = {
  comName: 'Portico Credit',
  email: 'support@portico.example',
  address: '12 MG Road, Bengaluru 560001, India',
  copyright: '© 2026 Portico Credit. All rights reserved.',
  remotes: {
    home: 'http://localhost:8081/mf-manifest.json',
    about: 'http://localhost:8082/mf-manifest.json',
    contact: 'http://localhost:8083/mf-manifest.json',
  },
  allowedRemoteOrigins: [],
  copyrightByLanguage: { id: '© 2026 Portico Credit. Hak cipta dilindungi undang-undang.' },
  legal: {
    IN: {
      companyName: 'Portico Credit Private Limited (sample)',
      registrationNumber: 'U00000KA2026PTC000000 (sample)',
      licenceNumber: 'N-00.00000 (sample)',
      registeredAddress: '12 MG Road, Bengaluru 560001, India (sample)',
      website: 'https://portico.example',
      phone: '+91 80 0000 0000',
      grievanceOfficer: {
        name: 'Asha Rao (sample)',
        email: 'grievance@portico.example',
        phone: '+91 80 0000 0001',
      },
    },
    ID: {
      companyName: 'PT Portico Kredit Indonesia (contoh)',
      registrationNumber: '0000000000000 (contoh)',
      licenceNumber: 'KEP-00/D.05/2026 (contoh)',
      registeredAddress: 'Jl. Jenderal Sudirman Kav. 1, Jakarta 10220, Indonesia (contoh)',
      website: 'https://portico.example',
      phone: '+62 21 0000 0000',
      grievanceOfficer: {
        name: 'Dewi Lestari (contoh)',
        email: 'pengaduan@portico.example',
        phone: '+62 21 0000 0001',
      },
      association: 'Asosiasi Fintech Pendanaan Bersama Indonesia (AFPI) (contoh)',
    },
  },
};
