import { parseArgs } from 'node:util';
import { contactSettings } from '../settings';
import { describeMessage, listLine } from './export-format';
import { openMessagesAccess } from './messages-access';
import { terminalText, type CommandIo } from '@portico/platform/command-line';

const USAGE = `npm run messages -- <command>

  list [--since DATE]                        one line per message, newest first
  show ID                                    one message in full, with its delivery
  export [--since DATE] [--format csv|json]  every message (since DATE) to stdout; csv by default
  delete ID [--yes]                          deletes one message (a visitor's deletion request),
                                             after asking (--yes: without asking; needed with no terminal)

DATE is an ISO date or time (2026-05-01, 2026-05-01T09:00:00Z). The messages
are read from the store the running server uses: through its control API
when a server answers at PORTICO_CONTROL_URL (default http://127.0.0.1:8084,
or PORT+4) and a token is at hand (PORTICO_TOKEN, else the data folder's
control-token); else DATABASE_URL's database; else the embedded database in
PORTICO_DATA_DIR (default data/). When it cannot tell which store the server
uses, it reads nothing and says why. It says which store it read, and every
read, export and deletion is audited (the token's name, or local:<OS user>).`;

class UsageError extends Error {}

function dateOption(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--since ${JSON.stringify(value)} is not a date`);
  return date;
}

export interface CommandContext extends CommandIo {
  /** Whether stdout is a terminal: a CSV export is then shown escaped, as everything else is; to a file or a pipe it is the exact text. */
  outIsTerminal?: boolean;
  /** Asks the operator a question on the terminal and answers what they typed; absent with no terminal to ask on. */
  ask?: (question: string) => Promise<string>;
}

async function execute(args: string[], context: CommandContext): Promise<void> {
  const { err } = context;
  // What the command says is for a terminal; only an export to a file keeps its bytes.
  const out = (text: string) => context.out(terminalText(text, { keepLineBreaks: true }));
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { since: { type: 'string' }, format: { type: 'string' }, yes: { type: 'boolean', short: 'y' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  const [command, id, ...extra] = positionals;
  if (values.help || command === undefined) {
    out(`${USAGE}\n`);
    return;
  }
  if (extra.length > 0) throw new UsageError(`unexpected ${extra.join(' ')}`);
  if (!['list', 'show', 'export', 'delete'].includes(command)) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const needsId = command === 'show' || command === 'delete';
  if (needsId && !id) throw new UsageError(`${command} needs a message id`);
  if (!needsId && id) throw new UsageError(`${command} takes no id`);
  if (values.since !== undefined && command !== 'list' && command !== 'export') throw new UsageError(`--since is for list and export, not ${command}`);
  if (values.format !== undefined && command !== 'export') throw new UsageError(`--format is for export, not ${command}`);
  if (values.yes && command !== 'delete') throw new UsageError(`--yes is for delete, not ${command}`);
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw new UsageError(`--format is csv or json, not ${JSON.stringify(format)}`);
  const since = dateOption(values.since);
  // Refused before anything is opened: deleting personal data is never done unasked.
  if (command === 'delete' && !values.yes && !context.ask)
    throw new UsageError('delete asks before it deletes, and there is no terminal to ask on: add --yes to delete without asking');

  const access = await openMessagesAccess(contactSettings(context.env, { rootDir: context.rootDir, invokedFrom: context.invokedFrom }), context.env, (line) =>
    err(`${line}\n`),
  );
  err(`messages: ${access.where}\n`);
  try {
    switch (command) {
      case 'list': {
        const messages = await access.list({ since });
        for (const message of messages) out(`${listLine(message)}\n`);
        err(`${messages.length} message(s)\n`);
        break;
      }
      case 'show': {
        const message = await access.get(id!);
        if (!message) throw new Error(`no message ${id}`);
        out(describeMessage(message));
        break;
      }
      case 'export': {
        const exported = await access.exported({ since, format });
        // JSON escapes what a terminal acts on losslessly; CSV has no escape, so only a terminal gets it escaped.
        context.out(format === 'csv' && context.outIsTerminal ? terminalText(exported, { keepLineBreaks: true }) : exported);
        break;
      }
      case 'delete': {
        if (!values.yes) {
          const message = await access.get(id!);
          if (!message) throw new Error(`no message ${id}`);
          const answer = await context.ask!(
            terminalText(
              `delete message ${message.id} from ${message.name}, received ${message.receivedAt.toISOString()}, from ${access.where}? Type yes to delete: `,
            ),
          );
          if (answer.trim().toLowerCase() !== 'yes') {
            err('messages: not deleted\n');
            return;
          }
        }
        if (!(await access.delete(id!))) throw new Error(`no message ${id}`);
        out(`deleted ${id}\n`);
        break;
      }
    }
  } finally {
    await access.close();
  }
}

/**
 * `npm run messages -- ...args`, as a function: the exit code, with what it
 * prints sent to `out` and `err`.
 */
export async function messagesCommand(args: string[], given: CommandContext): Promise<number> {
  // Every error text, a server's included, reaches the terminal escaped.
  const context: CommandContext = { ...given, err: (text) => given.err(terminalText(text, { keepLineBreaks: true })) };
  try {
    await execute(args, context);
    return 0;
  } catch (error) {
    context.err(`messages: ${terminalText((error as Error).message)}${error instanceof UsageError ? `\n\n${USAGE}` : ''}\n`);
    return 1;
  }
}
