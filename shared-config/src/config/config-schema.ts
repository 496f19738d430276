import * as z from 'zod/mini';
import { type BuiltInSectionId } from '@portico/contract/sections';
import { sectionIdProblem } from '@portico/contract/section-entries';
import { MARKETS, type Language, type Market } from '@portico/contract/languages';
import { HEX_COLOR } from '../theme/contrast';
import { CONTACT_BOUNDS, PREVIEW_REFUSALS, REMOTE_LOADING_BOUNDS } from './config-bounds';
import type { Theme } from '../theme/theme';

// zod compiles fast paths with `new Function` unless told not to; the host's
// Content-Security-Policy forbids eval, so it must never try.
z.config({ jitless: true });

const text = z.string().check(z.trim(), z.minLength(1, 'must not be empty'));
const httpUrl = z.url({ protocol: /^https?$/ });

/** `scheme://host[:port]` and nothing more, as `new URL(x).origin` prints it. */
const origin = z.string().check(
  z.refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
    } catch {
      return false;
    }
  }, 'must be an origin such as https://cdn.example.com, without a path'),
);

function wholeNumber({ min, max }: { min: number; max: number }) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.int(message).check(z.gte(min, message), z.lte(max, message));
}
/** At least three digits; spaces, dots, dashes, brackets and a leading + as people write them. */
const phone = z.string().check(z.trim(), z.regex(/^(?=(?:\D*\d){3})\+?[0-9 ().-]+$/, 'must be a phone number such as +91 80 4567 8900'));

/** `#rrggbb` only: the contrast check needs an exact colour, and a CSS keyword or `var()` is not one. */
const hexColor = z.string().check(z.regex(HEX_COLOR, 'must be a colour written #rrggbb, such as #0b5c6b'));

/**
 * A Subresource Integrity value: the algorithm and the base64 digest of a
 * remote's mf-manifest.json, as `openssl dgst -sha384 -binary | base64` prints
 * it. The lengths are those of a whole digest, so a truncated paste is named.
 */
const integrity = z
  .string()
  .check(
    z.regex(
      /^(sha256-[A-Za-z0-9+/]{43}=|sha384-[A-Za-z0-9+/]{64}|sha512-[A-Za-z0-9+/]{86}==)$/,
      'must be sha256-, sha384- or sha512- followed by the base64 digest of the manifest',
    ),
  );

/** A section's id as the contract's grammar has it: a built-in one or one an integrator added (issue 48). */
const sectionId = z.string().check(z.refine((id) => sectionIdProblem(id) === undefined, 'is not a section id'));

/**
 * config.json, as one schema. Each object's fields are checked one by one by
 * `parseConfig`, so a bad field is named and dropped while the rest is used;
 * the types below are inferred from it, never written out beside it.
 * `remotes` holds a manifest URL for any section id: the built-in three
 * (each required) and any the file or the releases store adds (its key
 * checked by parse-sections.ts against the id grammar).
 */
const remotesSchema = z.catchall(z.object({ home: httpUrl, about: httpUrl, contact: httpUrl } satisfies Record<BuiltInSectionId, unknown>), httpUrl);

/**
 * One section's entry in `sections`: the integrator's grant for any section,
 * and, for one this file adds (not a built-in one), what the page shows of
 * it: its labels, its place (`after` a section, `null` first, absent last),
 * the markets it shows in and whether it is hidden (parse-sections.ts reads
 * it with the contract's rules; sectionsFromConfig makes the list).
 */
const sectionSchema = z.object({
  interactive: z.optional(z.boolean()),
  labels: z.optional(z.object({ en: z.string(), id: z.string() } satisfies Record<Language, unknown>)),
  after: z.optional(z.nullable(sectionId)),
  markets: z.optional(z.array(z.enum(MARKETS))),
  hidden: z.optional(z.boolean()),
});

const remoteLoadingSchema = z.object({
  deadlineMs: wholeNumber(REMOTE_LOADING_BOUNDS.deadlineMs),
  retries: wholeNumber(REMOTE_LOADING_BOUNDS.retries),
});

/** What the server does with contact messages, stated publicly by the form's privacy note. */
const contactSchema = z.object({
  /** Days a message is kept before the server deletes it; 180 when absent. */
  retentionDays: wholeNumber(CONTACT_BOUNDS.retentionDays),
});

const grievanceOfficerSchema = z.object({ name: text, email: z.email(), phone: z.optional(phone) });

/**
 * One market's lender, as a regulated lender must publish it: the entity
 * that lends to that market's borrowers. `companyName` is required once the
 * block is given. The regulator and its complaint channel are not here: they
 * are the market's fixed text (the About section's language pack).
 */
const marketLegalSchema = z.object({
  companyName: text,
  registrationNumber: z.optional(text),
  licenceNumber: z.optional(text),
  registeredAddress: z.optional(text),
  website: z.optional(httpUrl),
  phone: z.optional(phone),
  grievanceOfficer: z.optional(grievanceOfficerSchema),
  /** The industry association the lender belongs to (Indonesia: AFPI for online lenders). */
  association: z.optional(text),
});

/**
 * The lenders, one block per market: `?type=1` (India) shows only `IN`'s,
 * `?type=2` (Indonesia) only `ID`'s, and a market without a block shows none.
 */
const legalSchema = z.object({
  IN: z.optional(marketLegalSchema),
  ID: z.optional(marketLegalSchema),
} satisfies Record<Market, unknown>);

/**
 * The old `legal`: one lender, with the `market` it is regulated in. Still
 * read, for that market only; parseConfig says how to move it.
 */
export const legacyLegalSchema = z.extend(marketLegalSchema, { market: z.enum(MARKETS) });

/**
 * What one market's page shows in place of the top-level `comName`, `email`,
 * `address` and `copyright`, each optional: the top-level values stay
 * required and are used where a market has no value of its own, so an
 * Indonesian visitor need never read the Indian office's address.
 */
const marketDetailsSchema = z.object({ comName: z.optional(text), email: z.optional(z.email()), address: z.optional(text), copyright: z.optional(text) });
const byMarketSchema = z.object({ IN: z.optional(marketDetailsSchema), ID: z.optional(marketDetailsSchema) } satisfies Record<Market, unknown>);

/** `copyright` in a language, replacing it there: the line is the operator's words, the page's language is not. */
const copyrightByLanguageSchema = z.object({ en: z.optional(text), id: z.optional(text) } satisfies Record<Language, unknown>);

const themeSchema = z.object({
  background: z.optional(hexColor),
  text: z.optional(hexColor),
  primary: z.optional(hexColor),
} satisfies Record<keyof Theme, unknown>);

/**
 * Set by the server, never by an operator (the server replaces it): the
 * visit opened a release's preview link (`npm run release -- preview`), and
 * the page says so, or the link did not open one, and the page says why.
 */
const previewSchema = z.object({
  section: sectionId,
  release: text,
  buildId: text,
  version: text,
  expiresAt: text,
});

/**
 * Set by the server, never by an operator: the release each section runs on
 * this page and the token the server signed over them, which the page's
 * visit report carries (contract/src/beacon.ts, HealthNote).
 */
const healthSchema = z.object({
  releases: z.partialRecord(sectionId, text),
  token: text,
});

export const configSchema = z.object({
  comName: text,
  email: z.email(),
  address: text,
  copyright: text,
  /** `{ "id": "© 2026 … Hak cipta dilindungi undang-undang." }`: the footer's line in that language. */
  copyrightByLanguage: z.optional(copyrightByLanguageSchema),
  /** `{ "ID": { "address": "Jl. …, Jakarta", "email": "…" } }`: a market's own company details (marketDetailsSchema). */
  byMarket: z.optional(byMarketSchema),
  remotes: remotesSchema,
  /** Absent means no override is allowed. */
  allowedRemoteOrigins: z._default(z.array(origin), () => []),
  /** Each field may be left out; the host fills in its defaults. */
  remoteLoading: z.optional(z.partial(remoteLoadingSchema)),
  legal: z.optional(legalSchema),
  theme: z.optional(themeSchema),
  /** Optional pins: each section's mf-manifest.json must hash to this. */
  remoteIntegrity: z.optional(z.partialRecord(sectionId, integrity)),
  /**
   * What the integrator grants each section (`{ "contact": { "interactive": true } }`);
   * a built-in section it does not name has its built-in grant (BUILT_IN_GRANTS),
   * an added one none. The server writes the grants the releases store holds
   * over the file's. A section this file adds is listed here with its labels
   * (`{ "faq": { "labels": { "en": "FAQ", "id": "Tanya Jawab" }, "after": "about" } }`).
   */
  sections: z.optional(z.partialRecord(sectionId, sectionSchema)),
  contact: z.optional(z.partial(contactSchema)),
  preview: z.optional(previewSchema),
  previewRefused: z.optional(z.enum(PREVIEW_REFUSALS)),
  health: z.optional(healthSchema),
});

/** A complete, valid config.json. */
export type RuntimeConfig = z.output<typeof configSchema>;
/** How the host loads each section: its time limit, retries included, and how often it retries. */
export type RemoteLoading = z.output<typeof remoteLoadingSchema>;
/** One market's lender (a block of `legal`). */
export type LegalDisclosures = z.output<typeof marketLegalSchema>;
export type GrievanceOfficer = z.output<typeof grievanceOfficerSchema>;
export type ContactSettings = z.output<typeof contactSchema>;
export type PreviewNote = z.output<typeof previewSchema>;
/** One section's entry in config.json's `sections`, as written. */
export type ConfigSection = z.output<typeof sectionSchema>;

/** What is left of a value once its bad fields are dropped: every field may be missing, at any depth. */
type ValidPart<T> = {
  [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object | undefined ? ValidPart<NonNullable<T[K]>> : T[K];
};

/** The valid part of one market's block of `legal`: a bad field is left out like any other. */
export type LegalConfig = ValidPart<LegalDisclosures>;

/**
 * What the page can safely use: every valid field, and none of the bad ones.
 * `theme` is there only if all its colours pass the contrast check.
 */
export type SiteConfig = ValidPart<Omit<RuntimeConfig, 'allowedRemoteOrigins'>> &
  Pick<RuntimeConfig, 'allowedRemoteOrigins'> & { remotes: ValidPart<RuntimeConfig['remotes']> };

export interface ConfigProblem {
  /** Dotted path of the field in config.json, e.g. `remotes.contact`. */
  field: string;
  message: string;
}
