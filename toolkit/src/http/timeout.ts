/** Timeout of both HTTP clients (specification, point 7). */
export const HTTP_TIMEOUT_MS = 60_000;
