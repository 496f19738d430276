import { parseArgs } from 'node:util';
import { ScaffoldError, scaffoldSection } from './scaffold-section';

const USAGE = `usage: npm run section:new -- <id> [--interactive] [--no-link]
  --interactive  an island that hydrates when used (default: static, no script in the browser)
  --no-link      registers the workspace but leaves npm install to you: for a root whose node_modules
                 is not its own (a test's temporary root wired to the repository)`;

/** `--no-link`: the workspace is registered, npm's install left to whoever runs it. */
const skipLink = async () => {};

/** `npm run section:new -- <id> [--interactive] [--no-link]`, run from the repository's root (npm runs root scripts there). */
async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { interactive: { type: 'boolean', default: false }, 'no-link': { type: 'boolean', default: false } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const [id, ...extra] = parsed.positionals;
  if (id === undefined || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const interactive = parsed.values.interactive === true;
  const linked = parsed.values['no-link'] !== true;
  try {
    const made = await scaffoldSection({ root: process.cwd(), id, interactive, ...(linked ? {} : { link: skipLink }) });
    process.stdout.write(
      [
        `Created ${made.folder}/ (${made.packageName}, remote ${made.remoteName}, ${interactive ? 'an island that hydrates when used' : 'static: no script in the browser'}), registered${linked ? ' and linked' : ' (not linked: run npm install --offline)'}.`,
        'Next:',
        `  npm test -w ${made.packageName}           its tests`,
        `  npm run dev -w ${made.packageName}        its standalone page on a free port from PORT+10 (8090)`,
        `  npm run build -w ${made.packageName}      into ${made.folder}/dist/ (mf-manifest.json, the node build in dist/server/)`,
        `  then upload dist/, and the integrator adds the section: npm run release -- section add ${id} --label en=… --label id=… --origin https://…${interactive ? ' (and the script grant: interactive)' : ''}`,
        '  README.md, "A new section team", walks the rest: token, publish, preview, activate.',
        '',
      ].join('\n'),
    );
    return 0;
  } catch (error) {
    console.error(error instanceof ScaffoldError ? `section:new: ${error.message}` : error);
    return 1;
  }
}

void main().then((code) => {
  process.exitCode = code;
});
