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

/** Limits of `remoteLoading`: a visitor never waits more than 10 s for a section. */
export const REMOTE_LOADING_BOUNDS = {
  deadlineMs: { min: 1000, max: 10_000 },
  retries: { min: 0, max: 5 },
} as const;

function wholeNumber({ min, max }: { min: number; max: number }) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.int(message).check(z.gte(min, message), z.lte(max, message));
}

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
} as const;

export interface RuntimeConfig {
  comName: string;
  email: string;
  address: string;
  copyright: string;
  remotes: Record<SectionId, string>;
  allowedRemoteOrigins: readonly string[];
  remoteLoading?: RemoteLoading;
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
}

export interface ConfigProblem {
  /** Dotted path of the field in config.json, e.g. `remotes.contact`. */
  field: string;
  message: string;
}
