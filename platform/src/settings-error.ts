/**
 * A setting from the environment that cannot be used: the message names the
 * variable and what it must be. A server stops on it at start; a command
 * prints it and exits 2.
 */
export class SettingsError extends Error {}
