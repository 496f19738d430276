/** A visitor should not wait longer than this for config.json. */
export const CONFIG_TIMEOUT_MS = 8000;
