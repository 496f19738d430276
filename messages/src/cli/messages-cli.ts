import path from 'node:path';
import { parseArgs } from 'node:util';
import { contactSettings } from '../settings';
import { describeMessage, listLine, toCsv, toJson } from './export-format';
import { openMessagesAccess } from './messages-access';

const USAGE = `npm run messages -- <command>

  list [--since DATE]                        one line per message, newest first
  show ID                                    one message in full, with its delivery
  export [--since DATE] [--format csv|json]  every message (since DATE) to stdout; csv by default
  delete ID                                  deletes one message (a visitor's deletion request)

DATE is an ISO date or time (2026-05-01, 2026-05-01T09:00:00Z). The messages
are read where the server keeps them: DATABASE_URL, or the embedded database
in PORTICO_DATA_DIR (default data/) through the running server.`;

// npm runs workspace scripts inside the workspace; paths the operator typed are relative to where they typed them.
const invokedFrom = process.env.INIT_CWD ?? process.cwd();
const rootDir = path.resolve(__dirname, '../../..');

class UsageError extends Error {}

function dateOption(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--since ${JSON.stringify(value)} is not a date`);
  return date;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { since: { type: 'string' }, format: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, id, ...extra] = positionals;
  if (values.help || command === undefined) {
    console.log(USAGE);
    return;
  }
  if (extra.length > 0) throw new UsageError(`unexpected ${extra.join(' ')}`);
  const needsId = command === 'show' || command === 'delete';
  if (needsId && !id) throw new UsageError(`${command} needs a message id`);
  if (!needsId && id) throw new UsageError(`${command} takes no id`);
  if (!['list', 'show', 'export', 'delete'].includes(command)) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw new UsageError('--format is csv or json');
  const since = dateOption(values.since);

  const access = await openMessagesAccess(contactSettings(process.env, { rootDir, invokedFrom }));
  try {
    switch (command) {
      case 'list': {
        const messages = await access.list({ since });
        for (const message of messages) console.log(listLine(message));
        console.error(`${messages.length} message(s)`);
        break;
      }
      case 'show': {
        const message = await access.get(id!);
        if (!message) throw new Error(`no message ${id}`);
        process.stdout.write(describeMessage(message));
        break;
      }
      case 'export': {
        const messages = await access.list({ since });
        process.stdout.write(format === 'json' ? toJson(messages) : toCsv(messages));
        break;
      }
      case 'delete': {
        if (!(await access.delete(id!))) throw new Error(`no message ${id}`);
        console.log(`deleted ${id}`);
        break;
      }
    }
  } finally {
    await access.close();
  }
}

main().catch((error: unknown) => {
  console.error(`messages: ${(error as Error).message}${error instanceof UsageError ? `\n\n${USAGE}` : ''}`);
  process.exit(1);
});
