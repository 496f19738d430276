/** The bounds config.json's schema holds numbers to, and what the page reads them for, without zod. */

/** Limits of `remoteLoading`: a visitor never waits more than 10 s for a section. */
export const REMOTE_LOADING_BOUNDS = {
  deadlineMs: { min: 1000, max: 10_000 },
  retries: { min: 0, max: 5 },
} as const;

/** Limits of `contact.retentionDays`: how long the server keeps a contact message, up to ten years. */
export const CONTACT_BOUNDS = { retentionDays: { min: 1, max: 3650 } } as const;

export const PREVIEW_REFUSALS = ['expired', 'invalid'] as const;
