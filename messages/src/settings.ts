// The contact messages' settings are read, with every other setting, by
// @portico/platform/settings: one list of what the environment may say.
export { contactSettings, type ContactSettings } from '@portico/platform/settings';
