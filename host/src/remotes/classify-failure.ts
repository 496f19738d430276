/**
 * Turns whatever a failed section load threw (Module Federation's runtime
 * errors, webpack's chunk errors, the browser's fetch errors, a section's own
 * render error) into one plain record for the operator: where it failed, which
 * URL, why, and whether another try could help. Pure, so every mapping is
 * unit-tested without a browser.
 */

/** Where loading stopped: the manifest, the remote's remoteEntry.js, one of its chunks, or its render. */
export type FailureStage = 'manifest' | 'entry' | 'chunk' | 'render';

export interface FailureDetail {
  stage: FailureStage;
  /** The URL that failed, or the manifest URL when nothing more precise is known. */
  url: string;
  /** One plain line for the console and the alert's reason line; never a stack. */
  cause: string;
  /** A network blip or an overloaded server: worth an automatic retry. */
  transient: boolean;
}

export interface FailureContext {
  /** The stage the loader had reached when the error came. */
  stage: FailureStage;
  manifestUrl: string;
}

/** A fault the loader found itself (an HTTP status, a bad manifest), already classified. */
export class RemoteFault extends Error {
  constructor(readonly detail: FailureDetail) {
    super(detail.cause);
    this.name = 'RemoteFault';
  }
}

/** Server answers that may well succeed a moment later. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

const MAX_CAUSE = 200;
const UNREACHABLE = 'could not be loaded (missing, unreachable or refused)';

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > MAX_CAUSE ? `${line.slice(0, MAX_CAUSE - 1)}…` : line;
}

interface FederationErrorParts {
  code: string;
  args: Record<string, unknown>;
  /** The error Module Federation wrapped, e.g. `ScriptNetworkError: …`. */
  original: string;
}

/**
 * Module Federation's runtime errors read
 * `[ Federation Runtime ]: <description> #RUNTIME-008\nargs: {json}\n<docs link>\nOriginal Error Message:\n <message>`.
 */
function parseFederationError(message: string): FederationErrorParts | undefined {
  const code = /#(RUNTIME-\d{3})\b/.exec(message)?.[1];
  if (!code) return undefined;
  let args: Record<string, unknown> = {};
  const argsLine = /^args: (.*)$/m.exec(message)?.[1];
  if (argsLine) {
    try {
      const parsed: unknown = JSON.parse(argsLine);
      if (parsed && typeof parsed === 'object') args = parsed as Record<string, unknown>;
    } catch {
      // Args are a courtesy; the code alone still classifies the error.
    }
  }
  const original = message.split('Original Error Message:\n')[1]?.trim() ?? '';
  return { code, args, original };
}

function stringArg(args: Record<string, unknown>, key: string, fallback: string): string {
  const value = args[key];
  return typeof value === 'string' && value !== '' ? value : fallback;
}

function isNetworkFailure(text: string): boolean {
  return /failed to fetch|networkerror|network error|load failed|err_/i.test(text);
}

function fromFederation({ code, args, original }: FederationErrorParts, context: FailureContext): FailureDetail {
  const manifestUrl = stringArg(args, 'manifestUrl', context.manifestUrl);
  const entryUrl = stringArg(args, 'remoteEntryUrl', stringArg(args, 'resourceUrl', context.manifestUrl));
  switch (code) {
    case 'RUNTIME-003': {
      const notJson = /SyntaxError|JSON/.test(original);
      return {
        stage: 'manifest',
        url: manifestUrl,
        cause: notJson ? 'is not JSON' : `could not be fetched (${firstLine(original) || 'network error'})`,
        transient: !notJson && isNetworkFailure(original),
      };
    }
    case 'RUNTIME-013':
      return { stage: 'manifest', url: manifestUrl, cause: 'is not a Module Federation manifest', transient: false };
    case 'RUNTIME-007':
    case 'RUNTIME-011':
      return { stage: 'manifest', url: manifestUrl, cause: 'names no usable remoteEntry.js', transient: false };
    case 'RUNTIME-008': {
      const url = stringArg(args, 'resourceUrl', entryUrl);
      if (original.includes('ScriptExecutionError')) {
        return { stage: 'entry', url, cause: 'threw an error while it ran', transient: false };
      }
      const timedOut = /timed out/i.test(original);
      return { stage: 'entry', url, cause: timedOut ? 'timed out' : UNREACHABLE, transient: true };
    }
    case 'RUNTIME-001':
      return { stage: 'entry', url: entryUrl, cause: 'ran but did not define its container', transient: false };
    case 'RUNTIME-002':
      return { stage: 'entry', url: entryUrl, cause: 'is not a Module Federation container', transient: false };
    case 'RUNTIME-015':
      return {
        stage: 'entry',
        url: entryUrl,
        cause: `failed to start its container (${firstLine(original) || 'no reason given'})`,
        transient: false,
      };
    case 'RUNTIME-014':
      return {
        stage: 'entry',
        url: entryUrl,
        cause: `does not expose ${stringArg(args, 'expose', 'the requested module')}`,
        transient: false,
      };
    case 'RUNTIME-004':
      return { stage: context.stage, url: context.manifestUrl, cause: 'the remote is not registered', transient: false };
    default:
      return { stage: context.stage, url: context.manifestUrl, cause: `Module Federation error ${code}`, transient: false };
  }
}

function ownString(value: unknown, key: string): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}

/** Classifies one error thrown while loading or rendering a section. */
export function classifyFailure(error: unknown, context: FailureContext): FailureDetail {
  if (error instanceof RemoteFault) return error.detail;

  const name = ownString(error, 'name') ?? '';
  const message = ownString(error, 'message') ?? String(error);

  const federation = parseFederationError(message);
  if (federation) return fromFederation(federation, context);

  // webpack's JSONP chunk loading (and mini-css-extract's) in the remote's own runtime.
  if (name === 'ChunkLoadError' || /^Loading (CSS )?chunk \S+ failed/.test(message)) {
    const url = ownString(error, 'request') ?? /\((?:\w+: )?(https?:\/\/[^)\s]+)\)/.exec(message)?.[1] ?? context.manifestUrl;
    const timedOut = ownString(error, 'type') === 'timeout';
    return { stage: 'chunk', url, cause: timedOut ? 'timed out' : UNREACHABLE, transient: true };
  }

  // webpack's container answers a request for a module it does not expose.
  const missing = /^Module "([^"]+)" does not exist in container/.exec(message);
  if (missing) {
    return { stage: 'entry', url: context.manifestUrl, cause: `does not expose ${missing[1]}`, transient: false };
  }

  if (context.stage === 'render') {
    return { stage: 'render', url: context.manifestUrl, cause: `threw while rendering: ${firstLine(message)}`, transient: false };
  }

  if (name === 'TypeError' && isNetworkFailure(message)) {
    return { stage: context.stage, url: context.manifestUrl, cause: 'could not be fetched (network error)', transient: true };
  }

  return {
    stage: context.stage,
    url: context.manifestUrl,
    cause: firstLine(name && !message.startsWith(name) ? `${name}: ${message}` : message) || 'failed for an unknown reason',
    transient: false,
  };
}
