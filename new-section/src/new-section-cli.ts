import { parseArgs } from 'node:util';
import { ScaffoldError, scaffoldSection } from './scaffold-section';

const USAGE = 'usage: npm run section:new -- <id> [--interactive]';

/** `npm run section:new -- <id> [--interactive]`, run from the repository's root (npm runs root scripts there). */
async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), allowPositionals: true, options: { interactive: { type: 'boolean', default: false } } });
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
  try {
    const made = await scaffoldSection({ root: process.cwd(), id, interactive });
    process.stdout.write(
      [
        `Created ${made.folder}/ (${made.packageName}, remote ${made.remoteName}, ${interactive ? 'an island that hydrates when used' : 'static: no script in the browser'}), registered and linked.`,
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
