import { controlToken, controlUrl, type ControlToken } from '../control-address';
import {
  ApiAnswerMismatch,
  apiClient,
  ApiRefusal,
  ApiUnreachable,
  type AnswerOf,
  type ApiRoute,
  type CallInput,
  type CallOptions,
} from '@portico/control-contract';
import { SettingsError } from '../settings-error';

// The operator's commands' one client of the control API (`npm run release`
// and `npm run messages`): where it listens and which token to send, from
// the same settings, and the failures every command words alike. What a
// refusal means (a flag named, a store to fall back on) is each command's.

/** The settings that say where the control API is, or which token to send, are wrong. */
export class ControlSettingsError extends Error {}

/** The control API does not answer, answers in another version's shapes, or cannot do it now (5xx): nothing the command can fix. */
export class ControlUnreachableError extends Error {}

export interface ControlClient {
  /** The control API's URL (PORTICO_CONTROL_URL, else this machine's control port). */
  readonly base: string;
  /** The token sent (PORTICO_TOKEN, else the owner token in the data folder) and where it came from; undefined: none, the calls carry no token. */
  readonly token: ControlToken | undefined;
  /** Calls `route`: its answer, else ControlUnreachableError, or the API's refusal (4xx) as ApiRefusal for the command to word. */
  call<R extends ApiRoute>(route: R, input: CallInput<R>, options?: CallOptions): Promise<AnswerOf<R>>;
  /** The same for a file rather than JSON (an export). */
  text<R extends ApiRoute>(route: R, input: CallInput<R>, mediaType: string, options?: CallOptions): Promise<string>;
}

/** The control API the settings in `env` name, with the token they give (`dataDir`: where the owner token is). */
export function controlClient(env: NodeJS.ProcessEnv, dataDir: string): ControlClient {
  let base: string;
  let token: ControlToken | undefined;
  try {
    base = controlUrl(env);
    token = controlToken(env, dataDir);
  } catch (error) {
    if (error instanceof SettingsError) throw new ControlSettingsError(error.message);
    throw error;
  }
  const client = apiClient({ base, token: token?.token });
  const worded = async <A>(send: () => Promise<A>): Promise<A> => {
    try {
      return await send();
    } catch (error) {
      if (error instanceof ApiUnreachable)
        throw new ControlUnreachableError(
          `the control API at ${base} does not answer (${error.reason}); is the server running? PORTICO_CONTROL_URL says where it listens`,
        );
      if (error instanceof ApiAnswerMismatch)
        throw new ControlUnreachableError(`the control API at ${base} ${error.message}: is it the same version as this command?`);
      if (error instanceof ApiRefusal && error.status >= 500)
        throw new ControlUnreachableError(`the control API cannot do it now (${error.status}): ${error.message}`);
      throw error;
    }
  };
  return {
    base,
    token,
    call: (route, input, options) => worded(() => client.call(route, input, options)),
    text: (route, input, mediaType, options) => worded(() => client.text(route, input, mediaType, options)),
  };
}
