import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
// The list alone: @portico/webpack's main export loads webpack, which the serving process must not (issue 47).
import { sharedDependencies } from '@portico/webpack/shared-dependencies';

const HOST_DIR = path.resolve(__dirname, '../../../host');

function packageOf(request: string): string {
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The version of `pkg` the host is built with: the one installed beside it. */
function installedVersion(pkg: string, from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'node_modules', pkg, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * What the host shares and at which versions: the names from
 * webpack/src/shared-dependencies.ts, the versions installed for the host.
 */
export function hostSharedVersions(hostDir = HOST_DIR): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of Object.keys(sharedDependencies)) {
    const version = installedVersion(packageOf(name), hostDir);
    if (version) versions[name] = version;
  }
  return versions;
}
