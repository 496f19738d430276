// For other packages' tests of the contact endpoint and the contact service.
export { serveApi } from './api-server';
export { directOrigin } from './direct-origin';
export { formBody, postContact, send, type Answer } from './http-client';
