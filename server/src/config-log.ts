import { createHash } from 'node:crypto';
import type { ConfigAnswer } from '@portico/config-server/config-answer';
import { configWarnings, parseConfig, type ConfigProblem, type ParsedConfig } from '@portico/shared-config/config';
import { firstSight } from './first-sight';

/** Contents remembered, the least recently seen forgotten first (a file that keeps changing is logged again, never without bound). */
const CONTENTS_KEPT = 100;

/**
 * The operator's report of a config.json, one line each: every field that
 * fails validation (left out of the page, which shows no notice of it), then
 * what a valid file still lacks or says in an old shape.
 */
function configReportLines({ config, problems, deprecated }: ParsedConfig): string[] {
  return [
    ...problems.map(({ field, message }) => `config.json: ${field}: ${message} (the page is rendered without it)`),
    ...configWarnings({ config, deprecated }).map(({ field, message }) => `config.json: ${field} ${message}`),
  ];
}

/**
 * Logs a config.json's report the first time the server sees its content
 * (at start, and after each edit): read afresh for every request, it would
 * otherwise fill the log at every page load. `content` is the operator's
 * file as answered, before the releases' remotes are put in it.
 */
export function configLogger(log: (line: string) => void): (content: string, parsed: ParsedConfig) => void {
  const first = firstSight(CONTENTS_KEPT);
  return (content, parsed) => {
    if (!first(createHash('sha256').update(content).digest('base64'))) return;
    for (const line of configReportLines(parsed)) log(line);
  };
}

/**
 * What `GET /api/config` answers for the config.json being served: its
 * invalid fields and what it lacks. A file that cannot be served at all is
 * one problem, of the whole document.
 */
export function configReport(answer: ConfigAnswer): { problems: ConfigProblem[]; warnings: ConfigProblem[] } {
  if (answer.value === undefined) return { problems: [{ field: '(document)', message: answer.fault ?? 'cannot be served' }], warnings: [] };
  const parsed = parseConfig(answer.value);
  return { problems: parsed.problems, warnings: configWarnings(parsed) };
}
