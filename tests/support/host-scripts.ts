/**
 * The host's entry a server-rendered page loads when an island is asked for:
 * the islands' one (React and the sections' loader, no Module Federation
 * runtime) while every interactive section of the page has an island script.
 */
export const HOST_ENTRY = /\/islands\.[0-9a-f]{10}\.js$/;
