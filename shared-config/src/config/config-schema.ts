import * as z from 'zod/mini';
import type { SectionId } from '../contract/section-contract';

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
  remoteIntegrity: integrity,
} as const;

export interface RuntimeConfig {
  comName: string;
  email: string;
  address: string;
  copyright: string;
  remotes: Record<SectionId, string>;
  allowedRemoteOrigins: readonly string[];
  /** Optional pins: each section's mf-manifest.json must hash to this. */
  remoteIntegrity?: Partial<Record<SectionId, string>>;
}

/** What the page can safely use: every valid field, and none of the bad ones. */
export interface SiteConfig {
  comName?: string;
  email?: string;
  address?: string;
  copyright?: string;
  remotes: Partial<Record<SectionId, string>>;
  allowedRemoteOrigins: readonly string[];
  remoteIntegrity?: Partial<Record<SectionId, string>>;
}

export interface ConfigProblem {
  /** Dotted path of the field in config.json, e.g. `remotes.contact`. */
  field: string;
  message: string;
}
