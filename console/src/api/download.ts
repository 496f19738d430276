import type { ConsoleSession } from './console-session';

/** An export whose answer is not the file asked for (a server answering JSON to `export=csv`): nothing is saved. */
export class NotTheFile extends Error {
  constructor(readonly type: string) {
    super(`the server answered ${type} instead of the file`);
  }
}

/**
 * Fetches an export with the session's headers and hands it to the browser
 * as a download, only if it is of `mediaType`: a file named `.csv` holds CSV.
 */
export async function download(
  session: ConsoleSession,
  path: string,
  query: Readonly<Record<string, string | undefined>>,
  fileName: string,
  mediaType = 'text/csv',
): Promise<void> {
  // An empty field is no filter: left out, as the screens' own calls leave it.
  const filters = Object.fromEntries(Object.entries(query).filter(([, value]) => value));
  const response = await session.client.open(path, filters);
  const type = response.headers.get('content-type') ?? 'nothing';
  if (type.split(';')[0]!.trim().toLowerCase() !== mediaType) throw new NotTheFile(type);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download; the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
