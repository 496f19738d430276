import type * as z from 'zod/mini';
import { themeContrastProblems, type Theme } from '../theme/theme';
import { MARKETS, type Market } from '@portico/contract/languages';
import { configSchema, legacyLegalSchema, type ConfigProblem, type LegalConfig, type SiteConfig } from './config-schema';
import { isRecord, parseRemotes, parseSections, sectionKeyProblem } from './parse-sections';

type Issue = z.core.$ZodIssue;

/**
 * zod's own wording ("Invalid input", or "Invalid input: expected string,
 * received number" once any module in the process has loaded zod's English
 * locale, as the server's do): ours replaces it, so the server and the
 * browser name a problem the same way.
 */
const zodsOwn = (message: string) => message.startsWith('Invalid input');

function describe(issue: Issue, value: unknown): string {
  // A number that is not whole fails zod's `int` type check: the schema's own message says what is wanted.
  if (issue.code === 'invalid_type' && typeof value === 'number' && !zodsOwn(issue.message)) return issue.message;
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
  if (issue.message && !zodsOwn(issue.message)) return issue.message;
  return 'is not valid';
}

function problemsOf(field: string, issues: readonly Issue[], value: unknown): ConfigProblem[] {
  return issues.map((issue) => {
    const path = [field, ...issue.path.map(String)].join('.');
    const at = issue.path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined), value);
    return { field: path, message: describe(issue, at) };
  });
}

/** One field's valid value (trimmed where the schema trims), or undefined with its problems recorded. */
function take<T>(field: string, schema: z.ZodMiniType<T>, value: unknown, problems: ConfigProblem[]): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  problems.push(...problemsOf(field, result.error.issues, value));
  return undefined;
}

type ObjectSchema = z.ZodMiniObject<Record<string, z.ZodMiniType>>;

/** The object schema a field holds, itself or inside `optional`: its fields are then taken one by one. */
function objectInside(schema: z.ZodMiniType): ObjectSchema | undefined {
  const def = schema._zod.def as { type: string; innerType?: z.ZodMiniType };
  if (def.type === 'object') return schema as ObjectSchema;
  return def.type === 'optional' && def.innerType ? objectInside(def.innerType) : undefined;
}

interface ObjectRules {
  /** What to say when the value is not an object at all. */
  notObject: string;
  /** Name keys the schema does not know: a typo would otherwise drop a disclosure or a colour silently. */
  namesUnknownKeys?: boolean;
}

/**
 * An object of config.json, field by field: each bad field is named and left
 * out, nested objects likewise, and every good field is kept.
 */
function takeObject(field: string, schema: ObjectSchema, raw: unknown, problems: ConfigProblem[], rules: ObjectRules) {
  if (!isRecord(raw)) {
    problems.push({ field, message: rules.notObject });
    return undefined;
  }
  if (rules.namesUnknownKeys) {
    for (const key of Object.keys(raw).filter((key) => !Object.hasOwn(schema.shape, key))) {
      problems.push({ field: `${field}.${key}`, message: 'is not a known field' });
    }
  }
  const kept: Record<string, unknown> = {};
  for (const [key, fieldSchema] of Object.entries(schema.shape)) {
    const inner = objectInside(fieldSchema);
    const value =
      inner && raw[key] !== undefined
        ? takeObject(`${field}.${key}`, inner, raw[key], problems, { ...rules, notObject: 'must be an object' })
        : take(`${field}.${key}`, fieldSchema, raw[key], problems);
    if (value !== undefined) kept[key] = value;
  }
  return kept;
}

const fields = configSchema.shape;
/** One pin of `remoteIntegrity`. */
const PIN = fields.remoteIntegrity._zod.def.innerType._zod.def.valueType;
/** One manifest URL of `remotes` (a built-in section's schema is every section's). */
const REMOTE_URL = fields.remotes.shape.home;

/**
 * The operator's colours. A colour that is not `#rrggbb` is named and left
 * out; then every pair of colours the page draws text in is checked, and if
 * any is below 4.5:1 the field to change is named and no theme is applied.
 */
function parseTheme(raw: unknown, problems: ConfigProblem[]): Partial<Theme> | undefined {
  const theme: Partial<Theme> | undefined = takeObject('theme', objectInside(fields.theme)!, raw, problems, {
    notObject: 'must be an object such as { "background": "#f6f8fb", "text": "#1b2430", "primary": "#0b5c6b" }',
    namesUnknownKeys: true,
  });
  if (!theme) return undefined;
  const contrast = themeContrastProblems(theme);
  problems.push(...contrast.map(({ field, message }) => ({ field: `theme.${field}`, message })));
  return contrast.length === 0 && Object.keys(theme).length > 0 ? theme : undefined;
}

export interface ParsedConfig {
  config: SiteConfig;
  problems: ConfigProblem[];
  /**
   * Fields written in an older shape that still works, each with how to move
   * it: nothing is wrong on the page, but the operator should edit the file.
   */
  deprecated?: ConfigProblem[];
}

/** One market's block, as a block of the new `legal` and as the old single object hold it. */
const MARKET_LEGAL = objectInside(fields.legal)!.shape.IN!;
const MARKET_LEGAL_SCHEMA = objectInside(MARKET_LEGAL)!;
const LEGACY_MARKET = legacyLegalSchema.shape.market;

const LEGAL_EXAMPLE = '{ "IN": { "companyName": "…" }, "ID": { "companyName": "…" } }';

/**
 * `legal`: one block per market, each read field by field. The old single
 * object with `market` is read too, for that market only (never the other),
 * and named in `deprecated` with how to move it; an old object whose
 * `market` is missing or wrong shows no lender anywhere.
 */
function parseLegal(raw: unknown, problems: ConfigProblem[], deprecated: ConfigProblem[]): Partial<Record<Market, LegalConfig>> | undefined {
  if (!isRecord(raw)) {
    problems.push({ field: 'legal', message: `must be an object such as ${LEGAL_EXAMPLE}` });
    return undefined;
  }
  const blockKeys = Object.keys(MARKET_LEGAL_SCHEMA.shape);
  if (Object.hasOwn(raw, 'market') || Object.keys(raw).some((key) => blockKeys.includes(key))) {
    const { market: marketValue, ...fieldsOfOne } = raw;
    const market = take('legal.market', LEGACY_MARKET, marketValue, problems);
    // Its fields are checked whatever the market: a typo is a typo.
    const block = takeObject('legal', MARKET_LEGAL_SCHEMA, fieldsOfOne, problems, {
      notObject: 'must be an object',
      namesUnknownKeys: true,
    });
    if (!market) return undefined;
    deprecated.push({
      field: 'legal',
      message: `is the old single-lender shape: it is shown on the ${market === 'IN' ? 'India (?type=1)' : 'Indonesia (?type=2)'} page only. Move its fields, without "market", into "legal": { "${market}": { … } }, and give the other market a block of its own`,
    });
    return block ? { [market]: block } : undefined;
  }
  for (const key of Object.keys(raw).filter((key) => !(MARKETS as readonly string[]).includes(key))) {
    problems.push({ field: `legal.${key}`, message: `is not a market (${MARKETS.join(', ')}): legal holds one block per market, such as ${LEGAL_EXAMPLE}` });
  }
  const legal: Partial<Record<Market, LegalConfig>> = {};
  for (const market of MARKETS) {
    if (raw[market] === undefined) continue;
    const block = takeObject(`legal.${market}`, MARKET_LEGAL_SCHEMA, raw[market], problems, {
      notObject: 'must be an object such as { "companyName": "…", "licenceNumber": "…" }',
      namesUnknownKeys: true,
    });
    if (block) legal[market] = block;
  }
  return legal;
}

/**
 * Validates config.json field by field. A bad or missing field is reported by
 * its dotted name and left out; every good field is kept, so the page renders
 * what it safely can instead of nothing. The one reader of config.json: the
 * page, the server (CSP, preloads) and the deploy tools all use it.
 */
export function parseConfig(raw: unknown): ParsedConfig {
  const config: SiteConfig = { remotes: {}, allowedRemoteOrigins: [] };
  const problems: ConfigProblem[] = [];
  const deprecated: ConfigProblem[] = [];
  if (!isRecord(raw)) {
    return { config, problems: [{ field: '(document)', message: 'must be a JSON object' }], deprecated };
  }

  for (const key of ['comName', 'email', 'address', 'copyright'] as const) {
    const value = take(key, fields[key], raw[key], problems);
    if (value !== undefined) config[key] = value;
  }
  if (raw.copyrightByLanguage !== undefined) {
    const byLanguage = takeObject('copyrightByLanguage', objectInside(fields.copyrightByLanguage)!, raw.copyrightByLanguage, problems, {
      notObject: 'must be an object such as { "id": "© 2026 … Hak cipta dilindungi undang-undang." }',
      // A language the page does not speak would never be shown.
      namesUnknownKeys: true,
    });
    if (byLanguage && Object.keys(byLanguage).length > 0) config.copyrightByLanguage = byLanguage;
  }

  if (raw.byMarket !== undefined) {
    const byMarket = takeObject('byMarket', objectInside(fields.byMarket)!, raw.byMarket, problems, {
      notObject: 'must be an object such as { "ID": { "address": "Jl. Jenderal Sudirman Kav. 1, Jakarta", "email": "dukungan@portico.example" } }',
      // A market the page has no page for would never be shown; a misspelt field would leave the top-level value shown.
      namesUnknownKeys: true,
    });
    if (byMarket && Object.keys(byMarket).length > 0) config.byMarket = byMarket;
  }

  config.remotes = parseRemotes(raw.remotes, problems, (field, value) => take(field, REMOTE_URL, value, problems));

  config.allowedRemoteOrigins = take('allowedRemoteOrigins', fields.allowedRemoteOrigins, raw.allowedRemoteOrigins, problems) ?? [];

  if (raw.remoteLoading !== undefined) {
    const remoteLoading = takeObject('remoteLoading', objectInside(fields.remoteLoading)!, raw.remoteLoading, problems, {
      notObject: 'must be an object such as { "deadlineMs": 9000, "retries": 2 }',
    });
    if (remoteLoading) config.remoteLoading = remoteLoading;
  }

  if (raw.contact !== undefined) {
    const contact = takeObject('contact', objectInside(fields.contact)!, raw.contact, problems, {
      notObject: 'must be an object such as { "retentionDays": 180 }',
      namesUnknownKeys: true,
    });
    if (contact) config.contact = contact;
  }

  if (raw.legal !== undefined) {
    const legal = parseLegal(raw.legal, problems, deprecated);
    if (legal) config.legal = legal;
  }

  if (raw.theme !== undefined) {
    const theme = parseTheme(raw.theme, problems);
    if (theme) config.theme = theme;
  }

  if (raw.remoteIntegrity !== undefined) problems.push(...parsePins(raw.remoteIntegrity, config));

  if (raw.sections !== undefined) config.sections = parseSections(raw.sections, problems);

  if (raw.preview !== undefined) {
    const preview = take('preview', fields.preview, raw.preview, problems);
    if (preview) config.preview = preview;
  }
  if (raw.health !== undefined) {
    const health = take('health', fields.health, raw.health, problems);
    if (health) config.health = health;
  }
  if (raw.previewRefused !== undefined) {
    const refused = take('previewRefused', fields.previewRefused, raw.previewRefused, problems);
    if (refused) config.previewRefused = refused;
  }

  return { config, problems, deprecated };
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
  const kept: Partial<Record<string, string>> = {};
  for (const [key, value] of Object.entries(pins)) {
    const keyProblem = sectionKeyProblem(key);
    if (keyProblem !== undefined) {
      problems.push({ field: `remoteIntegrity.${key}`, message: keyProblem });
      continue;
    }
    const id = key;
    const found: ConfigProblem[] = [];
    const pin = take(`remoteIntegrity.${id}`, PIN, value, found);
    if (pin !== undefined) {
      kept[id] = pin;
    } else {
      delete config.remotes[id];
      problems.push(...found.map((problem) => ({ ...problem, message: `${problem.message}; the ${id} section is not loaded unchecked` })));
    }
  }
  config.remoteIntegrity = kept;
  return problems;
}
