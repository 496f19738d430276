import type * as z from 'zod/mini';
import { SECTION_IDS, type SectionId } from '../contract/section-contract';
import { THEME_KEYS, themeContrastProblems, type Theme } from '../theme/theme';
import {
  configFields,
  type ConfigProblem,
  type ContactSettings,
  type RemoteLoading,
  type LegalConfig,
  type SiteConfig,
} from './config-schema';

type Issue = z.core.$ZodIssue;

function describe(issue: Issue, value: unknown): string {
  // A number that is not whole fails zod's `int` type check: say what is wanted instead.
  if (issue.code === 'invalid_type' && typeof value === 'number' && issue.message !== 'Invalid input') return issue.message;
  if (issue.code === 'invalid_type') {
    const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    return value === undefined ? `is missing (expected ${issue.expected})` : `expected ${issue.expected}, got ${got}`;
  }
  if (issue.code === 'invalid_value') {
    const allowed = `one of ${issue.values.map((allowedValue) => JSON.stringify(allowedValue)).join(', ')}`;
    return value === undefined ? `is missing (expected ${allowed})` : `must be ${allowed}`;
  }
  if (issue.code === 'invalid_format' && issue.format !== 'regex') {
    return `is not a valid ${issue.format === 'url' ? 'http(s) URL' : issue.format}`;
  }
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  return 'is not valid';
}

function problemsOf(field: string, schema: z.ZodMiniType, value: unknown): ConfigProblem[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const path = [field, ...issue.path.map(String)].join('.');
    const at = issue.path.reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined),
      value,
    );
    return { field: path, message: describe(issue, at) };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One field's valid value (trimmed where the schema trims), or undefined with
 * its problems recorded. An absent optional field is no problem.
 */
function take<T>(
  field: string,
  schema: z.ZodMiniType<T>,
  value: unknown,
  problems: ConfigProblem[],
  { optional = false } = {},
): T | undefined {
  if (optional && value === undefined) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  problems.push(...problemsOf(field, schema, value));
  return undefined;
}

/** Keys of an object that config.json does not know: a typo would hide a disclosure silently. */
function unknownKeys(field: string, raw: Record<string, unknown>, known: object): ConfigProblem[] {
  return Object.keys(raw)
    .filter((key) => !Object.hasOwn(known, key))
    .map((key) => ({ field: `${field}.${key}`, message: 'is not a known field' }));
}

function parseLegal(raw: unknown, problems: ConfigProblem[]): LegalConfig | undefined {
  if (raw === undefined) return undefined;
  if (!isRecord(raw)) {
    problems.push({ field: 'legal', message: 'must be an object' });
    return undefined;
  }
  const fields = configFields.legal;
  problems.push(...unknownKeys('legal', raw, fields));
  const legal: LegalConfig = {
    market: take('legal.market', fields.market, raw.market, problems),
    companyName: take('legal.companyName', fields.companyName, raw.companyName, problems),
  };
  for (const key of ['registrationNumber', 'licenceNumber', 'registeredAddress', 'website', 'phone'] as const) {
    legal[key] = take(`legal.${key}`, fields[key], raw[key], problems, { optional: true });
  }

  const officer = raw.grievanceOfficer;
  if (officer !== undefined && !isRecord(officer)) {
    problems.push({ field: 'legal.grievanceOfficer', message: 'must be an object' });
  } else if (officer !== undefined) {
    const officerFields = fields.grievanceOfficer;
    problems.push(...unknownKeys('legal.grievanceOfficer', officer, officerFields));
    legal.grievanceOfficer = {
      name: take('legal.grievanceOfficer.name', officerFields.name, officer.name, problems),
      email: take('legal.grievanceOfficer.email', officerFields.email, officer.email, problems),
      phone: take('legal.grievanceOfficer.phone', officerFields.phone, officer.phone, problems, { optional: true }),
    };
  }
  return withoutUndefined(legal);
}

/**
 * The operator's colours. A colour that is not `#rrggbb` is named and left
 * out; then every pair of colours the page draws text in is checked, and if
 * any is below 4.5:1 the field to change is named and no theme is applied.
 */
function parseTheme(raw: unknown, problems: ConfigProblem[]): Partial<Theme> | undefined {
  if (raw === undefined) return undefined;
  if (!isRecord(raw)) {
    problems.push({
      field: 'theme',
      message: 'must be an object such as { "background": "#f6f8fb", "text": "#1b2430", "primary": "#0b5c6b" }',
    });
    return undefined;
  }
  problems.push(...unknownKeys('theme', raw, configFields.theme));
  const theme: Partial<Theme> = {};
  for (const key of THEME_KEYS) {
    const value = take(`theme.${key}`, configFields.theme[key], raw[key], problems, { optional: true });
    if (value !== undefined) theme[key] = value;
  }
  const contrast = themeContrastProblems(theme);
  problems.push(...contrast.map(({ field, message }) => ({ field: `theme.${field}`, message })));
  return contrast.length === 0 && Object.keys(theme).length > 0 ? theme : undefined;
}

/** Drops keys whose value was left out, so a parsed object equals what was written. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .map(([key, entry]) => [key, isRecord(entry) ? withoutUndefined(entry) : entry]),
  ) as T;
}

export interface ParsedConfig {
  config: SiteConfig;
  problems: ConfigProblem[];
}

/**
 * Validates config.json field by field. A bad or missing field is reported by
 * its dotted name and left out; every good field is kept, so the page renders
 * what it safely can instead of nothing.
 */
export function parseConfig(raw: unknown): ParsedConfig {
  const config: SiteConfig = { remotes: {}, allowedRemoteOrigins: [] };
  const problems: ConfigProblem[] = [];
  if (!isRecord(raw)) {
    return { config, problems: [{ field: '(document)', message: 'must be a JSON object' }] };
  }

  for (const key of ['comName', 'email', 'address', 'copyright'] as const) {
    const found = problemsOf(key, configFields[key], raw[key]);
    if (found.length === 0) config[key] = (raw[key] as string).trim();
    problems.push(...found);
  }

  const remotes = raw.remotes;
  if (!isRecord(remotes)) {
    problems.push({
      field: 'remotes',
      message: remotes === undefined ? 'is missing (expected an object of manifest URLs)' : 'must be an object',
    });
  } else {
    for (const id of SECTION_IDS) {
      const found = problemsOf(`remotes.${id}`, configFields.remotes[id], remotes[id]);
      if (found.length === 0) config.remotes[id] = remotes[id] as string;
      problems.push(...found);
    }
  }

  if (raw.allowedRemoteOrigins !== undefined) {
    const found = problemsOf('allowedRemoteOrigins', configFields.allowedRemoteOrigins, raw.allowedRemoteOrigins);
    if (found.length === 0) config.allowedRemoteOrigins = raw.allowedRemoteOrigins as string[];
    problems.push(...found);
  }

  const remoteLoading = raw.remoteLoading;
  if (remoteLoading !== undefined) {
    if (!isRecord(remoteLoading)) {
      problems.push({ field: 'remoteLoading', message: 'must be an object such as { "deadlineMs": 9000, "retries": 2 }' });
    } else {
      const kept: Partial<RemoteLoading> = {};
      for (const key of ['deadlineMs', 'retries'] as const) {
        if (remoteLoading[key] === undefined) continue;
        const found = problemsOf(`remoteLoading.${key}`, configFields.remoteLoading[key], remoteLoading[key]);
        if (found.length === 0) kept[key] = remoteLoading[key] as number;
        problems.push(...found);
      }
      config.remoteLoading = kept;
    }
  }
  const contact = raw.contact;
  if (contact !== undefined) {
    if (!isRecord(contact)) {
      problems.push({ field: 'contact', message: 'must be an object such as { "retentionDays": 180 }' });
    } else {
      problems.push(...unknownKeys('contact', contact, configFields.contact));
      const kept: Partial<ContactSettings> = {};
      if (contact.retentionDays !== undefined) {
        const found = problemsOf('contact.retentionDays', configFields.contact.retentionDays, contact.retentionDays);
        if (found.length === 0) kept.retentionDays = contact.retentionDays as number;
        problems.push(...found);
      }
      config.contact = kept;
    }
  }

  const legal = parseLegal(raw.legal, problems);
  if (legal) config.legal = legal;

  const theme = parseTheme(raw.theme, problems);
  if (theme) config.theme = theme;

  if (raw.remoteIntegrity !== undefined) problems.push(...parsePins(raw.remoteIntegrity, config));

  return { config, problems };
}

/**
 * `remoteIntegrity`: optional hash pins of the sections' manifests. A pin the
 * operator wrote but that cannot be read fails closed: that section is not
 * loaded at all rather than loaded unchecked.
 */
function parsePins(pins: unknown, config: SiteConfig): ConfigProblem[] {
  if (!isRecord(pins)) {
    config.remotes = {};
    return [{ field: 'remoteIntegrity', message: 'must be an object of section: hash; no section is loaded unchecked' }];
  }
  const problems: ConfigProblem[] = [];
  const kept: Partial<Record<SectionId, string>> = {};
  for (const [key, value] of Object.entries(pins)) {
    if (!(SECTION_IDS as readonly string[]).includes(key)) {
      problems.push({ field: `remoteIntegrity.${key}`, message: `is not a section (${SECTION_IDS.join(', ')})` });
      continue;
    }
    const id = key as SectionId;
    const found = problemsOf(`remoteIntegrity.${id}`, configFields.remoteIntegrity, value);
    if (found.length === 0) {
      kept[id] = value as string;
    } else {
      delete config.remotes[id];
      problems.push(...found.map((problem) => ({ ...problem, message: `${problem.message}; the ${id} section is not loaded unchecked` })));
    }
  }
  config.remoteIntegrity = kept;
  return problems;
}
