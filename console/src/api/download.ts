import type { ConsoleSession } from './console-session';

/** Fetches an export (CSV) with the session's headers and hands it to the browser as a download. */
export async function download(session: ConsoleSession, path: string, query: Readonly<Record<string, string | undefined>>, fileName: string): Promise<void> {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, value);
  const response = await session.fetchText(search.size > 0 ? `${path}?${search}` : path);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download; the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
