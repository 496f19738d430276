import type { RuntimeConfig } from '@portico/shared-config';

/**
 * A complete config for a section's standalone page and for unit tests. Its
 * remote URLs are never fetched by a standalone page; its `legal` values are
 * made up and say so.
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
  legal: {
    market: 'IN',
    companyName: 'Portico Credit Private Limited (sample)',
    registrationNumber: 'CIN U00000KA2026PTC000000 (sample)',
    licenceNumber: 'RBI CoR N-00.00000 (sample)',
    registeredAddress: '12 MG Road, Bengaluru 560001, India (sample)',
    website: 'https://portico.example',
    phone: '+91 80 0000 0000',
    grievanceOfficer: {
      name: 'Asha Rao (sample)',
      email: 'grievance@portico.example',
      phone: '+91 80 0000 0001',
    },
  },
};
