import { sectionGrant, servedSections, type ParsedConfig } from '@portico/shared-config/config';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CACHE_IMMUTABLE,
  CACHE_REVALIDATE,
  COMMON_HEADERS,
  CROSS_ORIGIN_HEADERS,
  dataHeaders,
  HASHED_FILE,
  NOT_FOUND_PAGE,
  hostPageHeaders,
  pageHeaders,
  STRICT_TRANSPORT_SECURITY,
} from '@portico/server';
import { sectionManifestPath } from '@portico/contract/manifest-relay';
import { APP_DIRS } from '@portico/contract/sections';

const TEMPLATE_PATH = path.join(__dirname, '../nginx.conf.template');

/** Debian's libnginx-mod-http-brotli-static puts its module here. */
export const DEBIAN_BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

export interface NginxOptions {
  /** The config.json the site serves, as parseConfig read it: its remote origins make the host page's CSP. */
  config: ParsedConfig;
  /** Absolute path nginx serves /config.json from. */
  configPath: string;
  /** The folder holding host/dist and each remote-NAME/dist. */
  rootDir: string;
  /** Host on basePort, the remotes on the next three, as with `npm run serve`. */
  basePort: number;
  /** One address to listen on; every IPv4 and IPv6 interface when absent. */
  listenHost?: string;
  /** Folder for the pid file, the error log and nginx's scratch files. */
  prefix: string;
  /** The brotli_static module to load, or undefined to serve gzip only. */
  brotliModule?: string;
  mimeTypes?: string;
  template?: string;
  /** Told what config.json names that the page's CSP leaves out, and why. */
  log?: (line: string) => void;
  /**
   * The page rendered by the Node server (the default): nginx proxies `/`,
   * `/index.html`, `/theme.css`, `/sitemap.xml`, `/robots.txt` and `/api/` to `upstreams`.
   * False (`--no-ssr`): pure static hosting, the page rendered in the browser.
   */
  ssr?: boolean;
  /** The Node servers (`host:port`), one or more; by default `127.0.0.1:` basePort + 10. */
  upstreams?: readonly string[];
}

/** The Node server's port beside nginx when none is named: clear of the four nginx listens on. */
export const DEFAULT_UPSTREAM_OFFSET = 10;

/** `host:port`, IPv6 in brackets: what nginx's `server` line in an upstream takes. */
const UPSTREAM = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

function upstreamServers(upstreams: readonly string[]): string {
  if (upstreams.length === 0) throw new Error('server rendering needs at least one upstream (host:port of npm run serve)');
  return indent(
    upstreams.map((upstream) => {
      const match = UPSTREAM.exec(upstream);
      if (!match || Number(match[2]) < 1 || Number(match[2]) > 65_535) {
        throw new Error(`an upstream is host:port (127.0.0.1:8090, [::1]:8090), got ${JSON.stringify(upstream)}`);
      }
      // max_fails=0: a server whose port refused (a restart) is never marked down, so it is tried again as soon as it is back (deploy/nginx.conf.template).
      return `server ${upstream} max_fails=0;`;
    }),
    4,
  );
}

/**
 * Keeps the template's `# BEGIN server-rendered …` blocks and drops its
 * `# BEGIN static …` ones, or the other way round.
 */
function chooseMode(template: string, ssr: boolean): string {
  return template.replace(/^ *# BEGIN (static|server-rendered)([^\n]*)\n([\s\S]*?)^ *# END \1\2\n/gm, (_block, mode: string, _name: string, body: string) =>
    (mode === 'server-rendered') === ssr ? body : '',
  );
}

/** A value nginx reads literally inside double quotes. */
function quoted(value: string): string {
  if (/["\\$\n]/.test(value)) throw new Error(`cannot write ${JSON.stringify(value)} into an nginx string`);
  return `"${value}"`;
}

/** A path nginx reads literally without quotes. */
function bare(value: string): string {
  if (/[\s;{}"'$\\]/.test(value)) throw new Error(`nginx cannot take the path ${JSON.stringify(value)} unquoted; move it`);
  return value;
}

const indent = (lines: string[], spaces = 6) => lines.map((line) => `${' '.repeat(spaces)}${line}`).join('\n');

/**
 * nginx inherits no add_header into a location that has its own, so every
 * block of headers carries the HSTS line (empty, hence not sent, over http).
 */
function addHeaders(headers: Readonly<Record<string, string>>, always = false): string {
  return indent([
    ...Object.entries(headers).map(([name, value]) => `add_header ${name} ${quoted(value)}${always ? ' always' : ''};`),
    'add_header Strict-Transport-Security $portico_hsts always;',
  ]);
}

function listen(port: number, host: string | undefined): string {
  const lines = host ? [`listen ${host.includes(':') ? `[${host}]` : host}:${port};`] : [`listen ${port};`, `listen [::]:${port};`];
  return indent(lines, 4);
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`the nginx template uses ${placeholder}, which the generator does not know`);
    return value;
  });
}

/**
 * nginx's own relay of the sections' manifests, for the page it serves
 * itself (`--no-ssr`, or no Node server answering): that page's CSP connects
 * to its own origin only, as the Node server's does. Fixed when generated,
 * like that CSP: one exact location per section granted script, which
 * proxies its configured manifest URL when the page asks for exactly that
 * one (`url` as sectionManifestPath writes it) and answers 403 to anything
 * else. With a Node server, the Node server answers first.
 */
function staticManifests({ config }: ParsedConfig, ssr: boolean): string {
  const headers = addHeaders({ ...dataHeaders(), 'Cache-Control': 'no-store' }, true);
  return servedSections(config)
    .filter(({ id }) => sectionGrant(config, id).interactive)
    .flatMap(({ id }) => {
      const configured = config.remotes[id];
      const url = configured !== undefined && URL.canParse(configured) ? new URL(configured) : undefined;
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return [];
      const relayed = sectionManifestPath(id, url.href);
      const body = [
        `if ($arg_url != ${quoted(relayed.slice(relayed.indexOf('?url=') + '?url='.length))}) {`,
        '  return 403;',
        '}',
        // The trailing "?" drops the page's query; the manifest's own, if any, is kept.
        `rewrite ^ ${quoted(`${url.pathname}${url.search || '?'}`)} break;`,
        'proxy_set_header Host $proxy_host;',
        'proxy_ssl_server_name on;',
        'proxy_hide_header Cache-Control;',
        `proxy_pass ${bare(url.origin)};`,
      ];
      const named = `@static_manifest_${id}`;
      return ssr
        ? [
            `    location = /section-manifest/${id} {\n      proxy_pass http://portico_node;\n      error_page 502 503 504 = ${named};\n    }`,
            `    location ${named} {\n${headers}\n${indent(body)}\n    }`,
          ]
        : [`    location = /section-manifest/${id} {\n${headers}\n${indent(body)}\n    }`];
    })
    .join('\n\n');
}

/**
 * The nginx configuration that serves the four built apps as `npm run serve`
 * does: the same headers (the host page's CSP made from `config`), cache
 * rules, CORS on the remotes, precompressed files, 404 page and methods.
 */
export function nginxConfig(options: NginxOptions): string {
  const ssr = options.ssr ?? true;
  const template = chooseMode(options.template ?? readFileSync(TEMPLATE_PATH, 'utf8'), ssr);
  const [head, rest] = template.split(/^ *# BEGIN remote server\n/m);
  const [remoteBlock, tail] = (rest ?? '').split(/^ *# END remote server\n/m);
  if (head === undefined || remoteBlock === undefined || tail === undefined) {
    throw new Error('the nginx template has no "# BEGIN remote server" ... "# END remote server" section');
  }

  const distOf = (dir: string) => bare(path.join(path.resolve(options.rootDir), dir, 'dist'));
  const hostHeaders = hostPageHeaders(options.config, '', options.log);
  const shared: Record<string, string> = {
    prefix: bare(path.resolve(options.prefix)),
    mime_types: bare(options.mimeTypes ?? '/etc/nginx/mime.types'),
    load_brotli: options.brotliModule ? `load_module ${bare(options.brotliModule)};` : '# (no brotli_static module: gzip only)',
    brotli_static: options.brotliModule ? 'brotli_static on;' : '# brotli_static needs libnginx-mod-http-brotli-static',
    config_path: bare(path.resolve(options.configPath)),
    config_dir: bare(path.dirname(path.resolve(options.configPath))),
    config_file: bare(path.basename(options.configPath)),
    host_listen: listen(options.basePort, options.listenHost),
    host_root: distOf(APP_DIRS.host),
    host_page_headers: addHeaders(hostHeaders, true),
    remote_page_headers: addHeaders(pageHeaders([]), true),
    common_headers: addHeaders(COMMON_HEADERS),
    common_headers_always: addHeaders(COMMON_HEADERS, true),
    cors_headers: addHeaders(CROSS_ORIGIN_HEADERS),
    cors_headers_always: addHeaders(CROSS_ORIGIN_HEADERS, true),
    data_headers: addHeaders(dataHeaders()),
    data_headers_always: addHeaders(dataHeaders(), true),
    not_found_page: NOT_FOUND_PAGE.includes("'") ? quoted(NOT_FOUND_PAGE) : NOT_FOUND_PAGE,
    hashed_file: HASHED_FILE.source,
    cache_immutable: CACHE_IMMUTABLE,
    cache_revalidate: CACHE_REVALIDATE,
    strict_transport_security: STRICT_TRANSPORT_SECURITY,
    static_manifests: staticManifests(options.config, ssr),
    upstream_servers: ssr ? upstreamServers(options.upstreams ?? [`127.0.0.1:${options.basePort + DEFAULT_UPSTREAM_OFFSET}`]) : '',
  };

  const remotes = (['home', 'about', 'contact'] as const).map((app, index) =>
    fill(remoteBlock, {
      ...shared,
      remote_name: app,
      remote_listen: listen(options.basePort + index + 1, options.listenHost),
      remote_root: distOf(APP_DIRS[app]),
    }),
  );
  return fill(head, shared) + remotes.join('\n') + fill(tail, shared);
}
