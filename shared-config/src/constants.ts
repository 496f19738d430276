/** How long a contact toast stays on screen (specification, point 9). */
export const TOAST_DURATION_MS = 1000;

/** Timeout of both HTTP clients (specification, point 7). */
export const HTTP_TIMEOUT_MS = 60_000;

/** A visitor should not wait longer than this for config.json. */
export const CONFIG_TIMEOUT_MS = 8000;
