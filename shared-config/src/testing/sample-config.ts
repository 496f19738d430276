import type { RuntimeConfig } from '../config/config-schema';

/**
 * A complete config for a section's standalone page and for unit tests. Its
 * remote URLs are never fetched by a standalone page.
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
};
