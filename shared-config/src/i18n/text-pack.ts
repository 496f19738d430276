/**
 * The host's own texts, per language: the frame around the sections (nav,
 * skip link, language switch, footer labels, the notices the host shows
 * for a section or for config.json). Each section's copy lives in its own
 * package. Both packs are typed by this interface, so a key missing from
 * one fails the build.
 */
export interface TextPack {
  /** The page's heading when config.json names no company. */
  siteName: string;
  /** The page's `<meta name="description">` and Open Graph description, for search results and link previews. */
  metaDescription: string;
  /**
   * `tabs`: the built-in sections' names, equal to the contract's
   * BUILT_IN_SECTIONS labels (a test holds them equal). Kept for a section's
   * own code that reads it; the host names every tab from the page's list of
   * sections, whose entries carry their labels.
   */
  nav: { label: string; tabs: { home: string; about: string; contact: string } };
  /** The first link of the page, for keyboard users: past the navigation to the section shown. */
  skipLink: string;
  /** The accessible name of the group of language links in the nav. */
  languageSwitch: { label: string };
  footer: {
    companyName: string;
    email: string;
    address: string;
    /** The lender of the page's market (its block of config.json's `legal`), shown only when there is one. */
    lender: string;
    notConfigured: string;
    /** The host's privacy statement: the anonymous visit report and the cohort cookie (the contact form's note covers messages). */
    privacy: { summary: string; measurement: string; address: string; cookie: string };
  };
  sections: {
    loading: string;
    failed: string;
    /**
     * Why, in words a visitor can read to the operator: too slow, refused
     * by its pin, or else by the stage where loading stopped. The technical
     * detail (URL, status) is on the console.
     */
    reasons: { timeout: string; integrity: string; manifest: string; entry: string; chunk: string; render: string };
    tryAgain: string;
    override: string;
    /** The accessible name of the notice listing overridden sections. */
    overrideLabel: string;
    /** A release's preview link: the section, the release, its build and when the link expires. */
    preview: string;
    /** The accessible name of the preview notice. */
    previewLabel: string;
    previewExpired: string;
    previewInvalid: string;
  };
  /** The notice when config.json itself could not be read (missing, unreachable, not JSON): the page has nothing configured. */
  configProblem: string;
  /** The accessible name of the configuration notice. */
  configNoticeLabel: string;
}
