import { ApiRefusal, ApiUnreachable } from '@portico/control-contract';
import { fill } from '@portico/shared-config';
import type { ConsoleText } from '../i18n/console-text';
import { NotTheFile } from './download';

/** An API error in words an operator can act on: the API's own reason for a refusal. */
export function describeError(error: unknown, text: ConsoleText): string {
  if (error instanceof ApiUnreachable) return text.common.unreachable;
  if (error instanceof ApiRefusal && error.status === 403) return text.common.forbidden;
  if (error instanceof NotTheFile) return fill(text.common.notTheFile, { type: error.type });
  if (error instanceof Error) return fill(text.common.refused, { reason: error.message });
  return fill(text.common.refused, { reason: String(error) });
}
