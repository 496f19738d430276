import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerConfig } from '@portico/config-server/config-answer';
import { RELAY_FAULT_HEADER } from '@portico/contract/manifest-relay';
import { basePort, SECTION_IDS } from '@portico/contract/sections';

/**
 * The dev server's config.json: the sections' own code on this machine, and a
 * page rendered in the browser only, so every section the file does not say
 * otherwise of is granted script (docs/decisions/section-script.md): Home and
 * About, static where `npm run serve` renders them, would otherwise show
 * their alert in `npm run dev`.
 */
export function grantingScript(body: string): string {
  const config = JSON.parse(body) as { sections?: Record<string, { interactive?: boolean }> };
  const sections = { ...config.sections };
  for (const id of SECTION_IDS) sections[id] = { interactive: sections[id]?.interactive ?? true };
  return JSON.stringify({ ...config, sections });
}

/** The dev server's `/config.json`: `npm run serve`'s answer, each section granted script (grantingScript). */
export function answerDevConfig(req: IncomingMessage, res: ServerResponse): void {
  void answerConfig({ hostHeader: req.headers.host, basePort: basePort(process.env) }).then((answer) => {
    res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
    res.end(answer.status === 200 ? grantingScript(answer.body) : answer.body);
  });
}

/**
 * The dev server's `/section-manifest/` (the page's CSP connects to its own
 * origin only, as `npm run serve`'s does): a manifest its config.json names
 * is fetched from this machine (loopback, whatever host the request named),
 * its status and bytes passed on; any other URL is refused, nothing fetched.
 */
export function relayDevManifest(req: IncomingMessage, res: ServerResponse): void {
  const asked = new URL(req.url ?? '/', 'http://dev').searchParams.get('url') ?? '';
  const answer = (status: number, headers: Record<string, string>, body?: Buffer) =>
    res.writeHead(status, { 'Cache-Control': 'no-store', ...headers }).end(body);
  void answerConfig({ hostHeader: req.headers.host, basePort: basePort(process.env) })
    .then(async ({ value }) => {
      const remotes = Object.values((value as { remotes?: Record<string, string> } | undefined)?.remotes ?? {});
      if (!remotes.includes(asked)) return answer(403, { [RELAY_FAULT_HEADER]: 'refused' });
      const local = new URL(asked);
      local.hostname = 'localhost';
      const upstream = await fetch(local, { redirect: 'manual' });
      if (upstream.status >= 300 && upstream.status < 400) return answer(502, { [RELAY_FAULT_HEADER]: 'redirected' });
      return answer(upstream.status, { 'Content-Type': 'application/json' }, Buffer.from(await upstream.arrayBuffer()));
    })
    .catch(() => answer(502, { [RELAY_FAULT_HEADER]: 'unreachable' }));
}
