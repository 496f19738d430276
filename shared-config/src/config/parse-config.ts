import type * as z from 'zod/mini';
import { SECTION_IDS, type SectionId } from '../contract/section-contract';
import {
  configFields,
  type ConfigProblem,
  type SiteConfig,
} from './config-schema';

type Issue = z.core.$ZodIssue;

function describe(issue: Issue, value: unknown): string {
  if (issue.code === 'invalid_type') {
    const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    return value === undefined ? `is missing (expected ${issue.expected})` : `expected ${issue.expected}, got ${got}`;
  }
  if (issue.code === 'invalid_format') return `is not a valid ${issue.format === 'url' ? 'http(s) URL' : issue.format}`;
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
