import { parseArgs } from 'node:util';
import { terminalText, type CommandIo } from '@portico/platform/command-line';
import { CONTROL_PORT_OFFSET, DEFAULT_PORT } from '@portico/contract/sections';
import { describeThresholds } from '../canary/canary-settings';
import {
  CANARY_DEFAULTS,
  CONTROL_API,
  DEFAULT_AUDIT_LIMIT,
  DEFAULT_HEALTH_WINDOW_HOURS,
  DEFAULT_PREVIEW_SECONDS,
  MAX_AUDIT_LIMIT,
  MAX_PREVIEW_SECONDS,
  MIN_PREVIEW_SECONDS,
  PREVIEW_SECONDS_RANGE,
  scopeSchema,
} from '@portico/control-contract';
import { notRun, type Scope } from '../release';
import { control, RefusedError, UsageError } from './control-client';
import { sectionCommand, SECTION_USAGE } from './section-command';
import { alertsTable, auditTable, buildOf, named, printable, republishedLine, statusTable, switched, table, when, type AlertSettings } from './release-output';

const { minVisits, maxFailureDelta, maxSlowdown, minNetworks, maxNetworkShare } = CANARY_DEFAULTS;
const inHours = (seconds: number) => `${seconds / 3600} h`;

/** The usage text, its defaults and ranges the contract's (control-contract.ts): what the API applies is what it says. */
const USAGE = `npm run release -- <command>

  publish <section> <manifestUrl> [--note TEXT]   checks the build and stores it as a release
  list [section]                                  the releases, newest first, with their state
  activate <section> <release> [--note TEXT]      makes a release what every visitor gets
  rollback <section> [release] [--note TEXT]      one step back in the section's history, or to a release
  canary <section> <release> --percent N          serves the release to N % of visits (1-99) beside the active
         [--min-visits N] [--max-failure-delta F] one, rolled back automatically when worse (defaults: ${minVisits} visits,
         [--max-slowdown F] [--promote-after N]   ${maxFailureDelta}, ${maxSlowdown}; promoted after N healthy visits when asked;
         [--min-networks N]                       decided from ${minNetworks} client networks at least, none over ${maxNetworkShare * 100} % of
         [--max-network-share F]                  the counts; --min-networks 1 for a test on one machine)
         [--note TEXT]                            the same release again changes its share and thresholds
  grant <section> interactive|static [--note T]   the integrator's grant: whether the section's builds may run script
                                                  in the visitor's browser (built in: Home and About static, Contact interactive)
${SECTION_USAGE}
  promote <section> [--note TEXT]                 makes the section's canary its active release
  abort <section> [--note TEXT]                   ends the section's canary: every visit gets the active release
  preview <release> [--expires-in SECONDS]        a signed link to the page with that release (${inHours(DEFAULT_PREVIEW_SECONDS)} by default; ${MIN_PREVIEW_SECONDS} s to ${MAX_PREVIEW_SECONDS / 86_400} days)
  status [--hours N]                              each section's active release, since when, by whom, its canary, and
                                                  their health from real visits (the canary's window, else the last N hours, ${DEFAULT_HEALTH_WINDOW_HOURS} by default)
  audit [--section S] [--limit N]                 who did what, newest first (${DEFAULT_AUDIT_LIMIT} by default, at most ${MAX_AUDIT_LIMIT})
  token create <name> [--section S] [--scope X]   a new token, shown once (--scope: releases, messages, metrics
                                                  (a scraper's GET /metrics), section:<id>; repeatable; default:
                                                  the section's, else releases)
  token revoke <name>                             revokes a token
  alerts show                                     where alerts go, and the failure rate that raises one
  alerts set [--webhook URL] [--email ADDRESS]    changes what it names ("none" clears it): a broken release, a set-aside
             [--failure-rate F]                   build, an automatic rollback, a canary decided, an active release's
                                                  failure rate at F (0-1) for an hour without a canary

The control API is PORTICO_CONTROL_URL (default http://127.0.0.1:${DEFAULT_PORT + CONTROL_PORT_OFFSET}, or
PORT+${CONTROL_PORT_OFFSET}); the token is PORTICO_TOKEN, else the owner token the server wrote to
<data folder>/control-token (PORTICO_DATA_DIR, default data/).
Exit codes: 0 done, 1 refused (the reason printed), 2 usage or the API unreachable.`;

export type ReleaseCommandContext = CommandIo;

/** A number option as typed, or undefined when not given; its range is the control API's to check. */
function numberOption(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`${name} is a number, not ${JSON.stringify(text)}`);
  return value;
}

/** The scopes typed (--scope, repeatable), each checked as the API checks it: a refusal names the flag. */
function scopesOf(typed: readonly string[]): Scope[] {
  return typed.map((text) => {
    const parsed = scopeSchema.safeParse(text);
    if (!parsed.success) throw new RefusedError(`--scope: ${parsed.error.issues[0]!.message}`);
    return parsed.data;
  });
}

/** The command line as parseArgs reads it; a wrong one is a usage error. */
function commandLine(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        note: { type: 'string' },
        'expires-in': { type: 'string' },
        section: { type: 'string' },
        scope: { type: 'string', multiple: true },
        limit: { type: 'string' },
        hours: { type: 'string' },
        percent: { type: 'string' },
        'min-visits': { type: 'string' },
        'max-failure-delta': { type: 'string' },
        'max-slowdown': { type: 'string' },
        'promote-after': { type: 'string' },
        'min-networks': { type: 'string' },
        'max-network-share': { type: 'string' },
        webhook: { type: 'string' },
        email: { type: 'string' },
        'failure-rate': { type: 'string' },
        label: { type: 'string', multiple: true },
        origin: { type: 'string', multiple: true },
        after: { type: 'string' },
        first: { type: 'boolean' },
        market: { type: 'string', multiple: true },
        interactive: { type: 'boolean' },
        policy: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A canary's start as the command line gives it; what is not given is left out of the body (JSON has no undefined): the API's defaults apply. */
function canaryBody(release: string, values: ReturnType<typeof commandLine>['values']) {
  if (values.percent === undefined) throw new UsageError('canary needs --percent N: the share of visits (1-99) the release gets');
  return {
    release,
    percent: numberOption('--percent', values.percent)!,
    minVisits: numberOption('--min-visits', values['min-visits']),
    maxFailureDelta: numberOption('--max-failure-delta', values['max-failure-delta']),
    maxSlowdown: numberOption('--max-slowdown', values['max-slowdown']),
    promoteAfterVisits: numberOption('--promote-after', values['promote-after']),
    minNetworks: numberOption('--min-networks', values['min-networks']),
    maxNetworkShare: numberOption('--max-network-share', values['max-network-share']),
  };
}

/** `section add|set|hide|show|retire <id> …`: the integrator's catalogue of sections, through the same client. */
function sectionCase(rest: readonly string[], values: ReturnType<typeof commandLine>['values'], context: ReleaseCommandContext): Promise<string> {
  const api = control(context);
  const { add, change, retire } = CONTROL_API.sections;
  const calls = {
    add: (body: Record<string, unknown>) => api.call(add, { body: body as never }),
    change: (section: string, body: Record<string, unknown>) => api.call(change, { params: { section }, body }),
    retire: (section: string, body: Record<string, unknown>) => api.call(retire, { params: { section }, body }),
    list: () => api.call(CONTROL_API.sections.status, { query: {} }),
  };
  return sectionCommand(rest, values, calls, (message) => new UsageError(message));
}

/** `grant <section> interactive|static`: the section's grant, one field of its entry. */
async function grantCase(rest: readonly string[], note: { note?: string }, context: ReleaseCommandContext): Promise<string> {
  const [section, kind] = rest;
  if (rest.length !== 2) throw new UsageError('grant takes <section> interactive|static');
  if (kind !== 'interactive' && kind !== 'static') throw new UsageError(`grant takes <section> interactive|static, not ${JSON.stringify(kind)}`);
  const body = { interactive: kind === 'interactive', ...note };
  const { interactive } = await control(context).call(CONTROL_API.sections.change, { params: { section: section! }, body });
  return `${section}: ${interactive ? "interactive, its builds may run script in the visitor's browser" : "static, none of its script runs in the visitor's browser"}`;
}

async function execute(args: string[], context: ReleaseCommandContext): Promise<void> {
  const { out } = context;
  const { positionals, values } = commandLine(args);
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    out(`${USAGE}\n`);
    return;
  }
  const take = (min: number, max: number, names: string) => {
    if (rest.length < min || rest.length > max) throw new UsageError(`${command} takes ${names}`);
    return rest;
  };
  const note = values.note === undefined ? {} : { note: values.note };

  switch (command) {
    case 'publish': {
      const [section, manifestUrl] = take(2, 2, '<section> <manifestUrl>');
      const release = await control(context).call(CONTROL_API.releases.publish, { body: { section: section!, manifestUrl: manifestUrl!, ...note } });
      if (release.republished) out(`${printable(republishedLine(release))}\n`);
      else out(`published ${release.id}: build ${printable(buildOf(release))}, ${printable(release.manifestUrl)}\n`);
      return;
    }
    case 'list': {
      const [section] = take(0, 1, '[section]');
      const releases = await control(context).call(CONTROL_API.releases.list, { query: { section } });
      if (releases.length === 0) {
        out('no releases\n');
        return;
      }
      out(
        table([
          ['RELEASE', 'STATE', 'BUILD', 'CREATED', 'BY', 'NOTE'],
          ...releases.map((release) => [
            release.id,
            release.state,
            buildOf(release),
            when(release.createdAt),
            release.createdBy,
            release.broken ? `broken: ${release.broken.detail}` : (release.note ?? ''),
          ]),
        ]),
      );
      return;
    }
    case 'activate':
    case 'rollback': {
      const [section, release] = command === 'activate' ? take(2, 2, '<section> <release>') : take(1, 2, '<section> [release]');
      const params = { section: section! };
      const answer =
        command === 'activate'
          ? await control(context).call(CONTROL_API.sections.activate, { params, body: { release: release!, ...note } })
          : await control(context).call(CONTROL_API.sections.rollback, { params, body: { release, ...note } });
      out(`${switched(section!, answer)}\n`);
      return;
    }
    case 'canary': {
      const [section, release] = take(2, 2, '<section> <release> --percent N');
      const body = { ...canaryBody(release!, values), ...note };
      const state = await control(context).call(CONTROL_API.canaries.start, { params: { section: section! }, body });
      out(
        `${section}: ${named(state.candidate ?? null)} serves ${state.percent} % of visits beside ${state.active ? named(state.active) : "config.json's URL (no release is active)"}; ${state.canary ? describeThresholds(state.canary) : ''}\n`,
      );
      return;
    }
    case 'grant':
      out(`${await grantCase(rest, note, context)}\n`);
      return;
    case 'section':
    case 'policy':
      out(`${await sectionCase(command === 'policy' ? positionals : rest, values, context)}\n`);
      return;
    case 'promote': {
      const [section] = take(1, 1, '<section>');
      const state = await control(context).call(CONTROL_API.canaries.promote, { params: { section: section! }, body: note });
      out(`${switched(section!, state)}\n`);
      return;
    }
    case 'abort': {
      const [section] = take(1, 1, '<section>');
      const state = await control(context).call(CONTROL_API.canaries.abort, { params: { section: section! }, body: note });
      out(`${section}: the canary ended; every visit gets ${state.active ? named(state.active) : 'the URL in config.json'}\n`);
      return;
    }
    case 'preview': {
      const [release] = take(1, 1, '<release>');
      const expiresIn = values['expires-in'];
      if (expiresIn !== undefined && (!/^\d+$/.test(expiresIn) || Number(expiresIn) < MIN_PREVIEW_SECONDS || Number(expiresIn) > MAX_PREVIEW_SECONDS)) {
        throw new UsageError(`--expires-in: ${PREVIEW_SECONDS_RANGE}, not ${JSON.stringify(expiresIn)}`);
      }
      const answer = await control(context).call(CONTROL_API.releases.preview, {
        params: { id: release! },
        body: expiresIn === undefined ? {} : { expiresIn: Number(expiresIn) },
      });
      out(`${answer.url}\n`);
      context.err(`shows ${release} to whoever opens it, until ${when(answer.expiresAt)}\n`);
      return;
    }
    case 'status': {
      take(0, 0, 'no arguments (--hours N)');
      const window = values.hours;
      if (window !== undefined && !/^\d+$/.test(window)) throw new UsageError('--hours is a whole number of hours');
      const sections = await control(context).call(CONTROL_API.sections.status, { query: { hours: window } });
      out(statusTable(sections));
      context.err(`health: the visits reported since the canary started, else in the last ${window ?? DEFAULT_HEALTH_WINDOW_HOURS} hours (by whole hours)\n`);
      return;
    }
    case 'audit': {
      take(0, 0, 'no arguments (--section S, --limit N)');
      const entries = await control(context).call(CONTROL_API.audit.list, {
        query: { section: values.section || undefined, limit: values.limit || undefined },
      });
      out(auditTable(entries));
      return;
    }
    case 'token': {
      const [action, name] = take(2, 2, 'create <name> or revoke <name>');
      if (action === 'create') {
        const body = { name: name!, ...(values.section ? { section: values.section } : {}), ...(values.scope ? { scopes: scopesOf(values.scope) } : {}) };
        const created = await control(context).call(CONTROL_API.tokens.create, { body });
        out(`${created.token}\n`);
        context.err(`the token ${created.name} (${created.scopes.join(', ')}), shown this once: keep it in your CI's secrets\n`);
        return;
      }
      if (action === 'revoke') {
        await control(context).call(CONTROL_API.tokens.revoke, { params: { name: name! } });
        out(`revoked ${name}\n`);
        return;
      }
      throw new UsageError(`token ${action}: create or revoke`);
    }
    case 'alerts': {
      const [action] = take(1, 1, 'show or set');
      const show = (settings: AlertSettings) => out(alertsTable(settings));
      if (action === 'show') return show(await control(context).call(CONTROL_API.alerts.show, {}));
      if (action !== 'set') throw new UsageError(`alerts ${action}: show or set`);
      const cleared = (text: string) => (text === 'none' ? null : text);
      const body = {
        ...(values.webhook === undefined ? {} : { webhookUrl: cleared(values.webhook) }),
        ...(values.email === undefined ? {} : { email: cleared(values.email) }),
        ...(values['failure-rate'] === undefined ? {} : { failureRateThreshold: values['failure-rate'] === 'none' ? null : Number(values['failure-rate']) }),
      };
      if (Object.keys(body).length === 0) throw new UsageError('alerts set: --webhook, --email or --failure-rate');
      return show(await control(context).call(CONTROL_API.alerts.set, { body }));
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}

/**
 * `npm run release -- ...args`, as a function: the exit code (0 done, 1
 * refused, 2 usage or unreachable), what it prints sent to `out` and `err`.
 */
export async function releaseCommand(args: string[], given: ReleaseCommandContext): Promise<number> {
  // Whatever is printed, error texts and a 5xx body included, reaches the terminal escaped.
  const context: ReleaseCommandContext = {
    ...given,
    out: (text) => given.out(terminalText(text, { keepLineBreaks: true })),
    err: (text) => given.err(terminalText(text, { keepLineBreaks: true })),
  };
  try {
    await execute(args, context);
    return 0;
  } catch (error) {
    if (error instanceof RefusedError) {
      context.err(`release: refused: ${printable(error.message)}\n`);
      // A check that could not run found no fault: it is not marked as one.
      for (const check of error.checks.filter((one) => !one.ok))
        context.err(`  ${notRun(check) ? '-' : '✗'} ${printable(check.name)}: ${printable(check.detail)}\n`);
      return 1;
    }
    if (error instanceof UsageError) {
      context.err(`release: ${printable(error.message)}\n\n${USAGE}\n`);
      return 2;
    }
    // A 5xx answer's text is the server's (or a proxy's) and printed as any other.
    context.err(`release: ${printable((error as Error).message)}\n`);
    return 2;
  }
}
