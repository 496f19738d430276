export { contactSettings, type ContactSettings } from './settings';
export { ContactStartError, startContactService, type ContactService, type ContactServiceOptions } from './contact-service';
export { apiRoutes, type ApiRoutesOptions, type ContactEndpoint, type RequestOrigin, type RequestOriginOf } from './http/contact-routes';
export { clientNetwork } from './http/client-network';
export { type ContactMessage } from './contact-message';
export { DEFAULT_RETENTION_DAYS } from './retention';
export { SIGNATURE_HEADER, signature } from './delivery/channels';
export { type MessageAccessAction, type MessageAccessEntry, type OperatorMessages, type StoredMessage } from './store/message-store';
export { messagesCommand, type CommandContext } from './cli/messages-command';
