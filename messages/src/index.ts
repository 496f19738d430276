export { contactSettings, SettingsError, type ContactSettings } from './settings';
export { ContactStartError, startContactService, type ContactService, type ContactServiceOptions } from './contact-service';
export { contactRequestOrigin, type RequestOrigin, type RequestOriginOf } from './http/request-origin';
export { BODY_TIME_MS, storeOpeningApi } from './http/contact-endpoint';
export { clientNetwork } from './http/client-network';
export { type ContactMessage } from './contact-message';
export { DEFAULT_RETENTION_DAYS } from './retention';
export { SIGNATURE_HEADER, signature } from './delivery/channels';
