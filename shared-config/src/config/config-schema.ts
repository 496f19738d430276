import * as z from 'zod/mini';
import type { SectionId } from '../contract/section-contract';
import { HEX_COLOR } from '../theme/contrast';
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

/** Limits of `remoteLoading`: a visitor never waits more than 10 s for a section. */
export const REMOTE_LOADING_BOUNDS = {
  deadlineMs: { min: 1000, max: 10_000 },
  retries: { min: 0, max: 5 },
} as const;

/** Limits of `contact.retentionDays`: how long the server keeps a contact message, up to ten years. */
export const CONTACT_BOUNDS = { retentionDays: { min: 1, max: 3650 } } as const;

function wholeNumber({ min, max }: { min: number; max: number }) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.int(message).check(z.gte(min, message), z.lte(max, message));
}
/** At least three digits; spaces, dots, dashes, brackets and a leading + as people write them. */
const phone = z
  .string()
  .check(z.trim(), z.regex(/^(?=(?:\D*\d){3})\+?[0-9 ().-]+$/, 'must be a phone number such as +91 80 4567 8900'));

/** `#rrggbb` only: the contrast check needs an exact colour, and a CSS keyword or `var()` is not one. */
const hexColor = z.string().check(z.regex(HEX_COLOR, 'must be a colour written #rrggbb, such as #0b5c6b'));

/** The markets a lender may be regulated in; each has its regulator's texts. */
export const MARKETS = ['IN', 'ID'] as const;
export type Market = (typeof MARKETS)[number];

/**
 * A Subresource Integrity value: the algorithm and the base64 digest of a
 * remote's mf-manifest.json, as `openssl dgst -sha384 -binary | base64` prints
 * it. The lengths are those of a whole digest, so a truncated paste is named.
 */
const integrity = z.string().check(
  z.regex(
    /^(sha256-[A-Za-z0-9+/]{43}=|sha384-[A-Za-z0-9+/]{64}|sha512-[A-Za-z0-9+/]{86}==)$/,
    'must be sha256-, sha384- or sha512- followed by the base64 digest of the manifest',
  ),
);

/**
 * Every field of config.json, one schema per field so that a bad field is
 * reported by name and the rest of the document is still used.
 */
export const configFields = {
  comName: text,
  email: z.email(),
  address: text,
  copyright: text,
  remotes: {
    home: httpUrl,
    about: httpUrl,
    contact: httpUrl,
  },
  allowedRemoteOrigins: z.array(origin),
  remoteLoading: {
    deadlineMs: wholeNumber(REMOTE_LOADING_BOUNDS.deadlineMs),
    retries: wholeNumber(REMOTE_LOADING_BOUNDS.retries),
  },
  legal: {
    market: z.enum(MARKETS),
    companyName: text,
    registrationNumber: text,
    licenceNumber: text,
    registeredAddress: text,
    website: httpUrl,
    phone,
    grievanceOfficer: { name: text, email: z.email(), phone },
  },
  theme: {
    background: hexColor,
    text: hexColor,
    primary: hexColor,
  },
  remoteIntegrity: integrity,
  contact: {
    retentionDays: wholeNumber(CONTACT_BOUNDS.retentionDays),
  },
} as const;

export interface GrievanceOfficer {
  name: string;
  email: string;
  phone?: string;
}

/**
 * Who the lender is, as a regulated lender must publish it (config.json
 * `legal`). `market` and `companyName` are required once `legal` is given;
 * the regulator's texts follow `market`.
 */
export interface LegalDisclosures {
  market: Market;
  companyName: string;
  registrationNumber?: string;
  licenceNumber?: string;
  registeredAddress?: string;
  website?: string;
  phone?: string;
  grievanceOfficer?: GrievanceOfficer;
}

/** The valid part of `legal`: a bad field is left out like any other. */
export type LegalConfig = Partial<Omit<LegalDisclosures, 'grievanceOfficer'>> & {
  grievanceOfficer?: Partial<GrievanceOfficer>;
};

export interface RuntimeConfig {
  comName: string;
  email: string;
  address: string;
  copyright: string;
  remotes: Record<SectionId, string>;
  allowedRemoteOrigins: readonly string[];
  remoteLoading?: RemoteLoading;
  legal?: LegalDisclosures;
  theme?: Partial<Theme>;
  /** Optional pins: each section's mf-manifest.json must hash to this. */
  remoteIntegrity?: Partial<Record<SectionId, string>>;
  contact?: ContactSettings;
}

/** What the server does with contact messages, stated publicly by the form's privacy note. */
export interface ContactSettings {
  /** Days a message is kept before the server deletes it; 180 when absent. */
  retentionDays: number;
}

/** How the host loads each section: its time limit, retries included, and how often it retries. */
export interface RemoteLoading {
  deadlineMs: number;
  retries: number;
}

/** What the page can safely use: every valid field, and none of the bad ones. */
export interface SiteConfig {
  comName?: string;
  email?: string;
  address?: string;
  copyright?: string;
  remotes: Partial<Record<SectionId, string>>;
  allowedRemoteOrigins: readonly string[];
  /** Only the valid parts of `remoteLoading`; the host fills in its defaults. */
  remoteLoading?: Partial<RemoteLoading>;
  legal?: LegalConfig;
  /** Only a theme whose colours all pass the contrast check; without it, base.css's own colours. */
  theme?: Partial<Theme>;
  remoteIntegrity?: Partial<Record<SectionId, string>>;
  contact?: Partial<ContactSettings>;
}

export interface ConfigProblem {
  /** Dotted path of the field in config.json, e.g. `remotes.contact`. */
  field: string;
  message: string;
}
