export { contactSettings, SettingsError, type ContactSettings } from './settings';
export { ContactStartError, startContactService, type ContactService, type ContactServiceOptions } from './contact-service';
export { BODY_TIME_MS, storeOpeningApi, type RequestOrigin, type RequestOriginOf } from './http/contact-endpoint';
export { clientNetwork } from './http/client-network';
export { type ContactMessage } from './contact-message';
export { DEFAULT_RETENTION_DAYS } from './retention';
export { SIGNATURE_HEADER, signature } from './delivery/channels';
export { openEmbeddedDatabase, openServerDatabase, type Database, type Listening, type Sql } from './store/database';
export { applyMigrations, type MigrationPlan } from './store/migrations';
