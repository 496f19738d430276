import { dataFolder } from '@portico/platform/data-folder';
import { ControlSettingsError, ControlUnreachableError, controlClient, type CommandIo } from '@portico/platform/command-line';
import { ApiRefusal, type AnswerOf, type ApiRoute, type CallInput, refusalSchema } from '@portico/control-contract';
import type { CheckResult } from '../release';

// The release command's side of the commands' one control client
// (@portico/platform/command-line): a refusal (exit 1) in the command's
// words, naming the flag that set the refused field; the API unreachable or
// failing, or a usage error (exit 2).

/** Exit 2: the command line is wrong, or the API cannot be reached or cannot answer now. */
export class UsageError extends Error {}
class UnreachableError extends Error {}
/** Exit 1: the API refused, with its reason and, for a publish, the failed checks. */
export class RefusedError extends Error {
  constructor(
    message: string,
    readonly checks: CheckResult[] = [],
  ) {
    super(message);
  }
}

/** The flag that sets each field of a request (body or query), to name it so in the control API's refusals. */
const FLAG_OF: Readonly<Record<string, string>> = {
  expiresIn: '--expires-in',
  percent: '--percent',
  minVisits: '--min-visits',
  maxFailureDelta: '--max-failure-delta',
  maxSlowdown: '--max-slowdown',
  promoteAfterVisits: '--promote-after',
  note: '--note',
  hours: '--hours',
  limit: '--limit',
  scopes: '--scope',
  labels: '--label',
  origins: '--origin',
  after: '--after',
  markets: '--market',
};

/** `expiresIn: a whole number …` as `--expires-in: a whole number …` when the field came from a flag. */
function withFlagNamed(error: string, field: string | undefined): string {
  // `scopes.1` is the second --scope.
  const flag = field === undefined ? undefined : FLAG_OF[field.split('.')[0]!];
  if (field === undefined || flag === undefined) return error;
  // A body's field is `field: …`, a query's `field …`.
  const rest = error.startsWith(`${field}: `) ? error.slice(field.length + 2) : error.startsWith(`${field} `) ? error.slice(field.length + 1) : error;
  return `${flag}: ${rest}`;
}

/**
 * The control API, through its typed client (the contract's routes, the
 * bearer token), with its failures in the command's words: the API
 * unreachable or failing (exit 2), a refusal (exit 1, a flag named for the
 * field it set, a publish's checks listed).
 */
export interface Control {
  call<R extends ApiRoute>(route: R, input: CallInput<R>): Promise<AnswerOf<R>>;
}

export function control(context: CommandIo): Control {
  const folder = dataFolder(context.env, context);
  let client;
  try {
    client = controlClient(context.env, folder);
  } catch (error) {
    if (error instanceof ControlSettingsError) throw new UsageError(error.message);
    throw error;
  }
  const { token } = client;
  if (!token)
    throw new UsageError(`no token: set PORTICO_TOKEN, or run the command on the server's machine as its user (the owner token is in ${folder}/control-token)`);
  return {
    async call(route, input) {
      try {
        return await client.call(route, input);
      } catch (error) {
        if (error instanceof ControlUnreachableError) throw new UnreachableError(error.message);
        if (!(error instanceof ApiRefusal)) throw error;
        const refusal = refusalSchema.safeParse(error.body);
        const text = refusal.success ? refusal.data.error : `the control API answered ${error.status} with no JSON`;
        if (error.status === 401) throw new RefusedError(`${text} (the token from ${token.from})`);
        const fields = refusal.success ? refusal.data : undefined;
        throw new RefusedError(error.status === 400 ? withFlagNamed(text, fields?.field) : text, fields?.checks ?? []);
      }
    },
  };
}
