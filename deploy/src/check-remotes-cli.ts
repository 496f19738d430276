import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkRemotes, formatReport, reportFails } from './check-remotes';

const USAGE = `npm run check-remotes [path/to/config.json | URL of config.json]

Checks every field of config.json (by default http://localhost:8080/config.json,
the running site's) as the page reads it, says which market shows no lender,
and fetches every section's mf-manifest.json it names to check that the host
can load it: reachable at that URL (no redirect is followed), a federation
manifest of that section, exposing ./section, sharing react and
@portico/shared-config (and react-dom if it uses it) as singletons in ranges
the host's versions satisfy, matching its remoteIntegrity pin if any, and naming a
node build of the section (for server rendering) that is reachable on the
manifest's origin and matches its hash.
Exits 1 when any field is invalid or any section would not load.`;

async function readConfig(source: string): Promise<unknown> {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source, { signal: AbortSignal.timeout(5000) }).catch((error: Error) => {
      throw new Error(`cannot fetch ${source}: ${(error.cause as Error | undefined)?.message ?? error.message}`);
    });
    if (!response.ok) throw new Error(`${source} answered HTTP ${response.status}`);
    return response.json();
  }
  // Paths the operator typed are relative to where they typed them.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), source);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${file} as JSON: ${(error as Error).message}`);
  }
}

async function main(): Promise<number> {
  const source = process.argv[2] ?? 'http://localhost:8080/config.json';
  if (source === '--help' || source === '-h') {
    console.log(USAGE);
    return 0;
  }
  console.log(`Checking the remotes of ${source}\n`);
  const report = await checkRemotes(await readConfig(source));
  process.stdout.write(formatReport(report));
  return reportFails(report) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`check-remotes: ${(error as Error).message}`);
    process.exit(2);
  },
);
