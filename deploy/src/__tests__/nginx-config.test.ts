import { parseConfig } from '@portico/shared-config/config';
import { contentSecurityPolicy } from '@portico/server';
import { nginxConfig, type NginxOptions } from '../nginx-config';

const config = {
  remotes: {
    home: 'https://cdn.example/home/mf-manifest.json',
    about: 'https://cdn.example/about/mf-manifest.json',
    contact: 'https://contact.example/v2/mf-manifest.json',
  },
  allowedRemoteOrigins: ['https://staging.example'],
};
const options: NginxOptions = {
  config: parseConfig(config),
  configPath: '/srv/portico/config.json',
  rootDir: '/srv/portico',
  basePort: 8080,
  prefix: '/run/portico',
  brotliModule: '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so',
};
const text = nginxConfig(options);

test('four servers on the four ports, each rooted at its dist/, on IPv4 and IPv6', () => {
  for (const [port, dir] of [
    [8080, 'host'],
    [8081, 'remote-home'],
    [8082, 'remote-about'],
    [8083, 'remote-contact'],
  ] as const) {
    expect(text).toContain(`listen ${port};\n    listen [::]:${port};\n    root /srv/portico/${dir}/dist;`);
  }
  expect(text.match(/^ {2}server \{/gm)).toHaveLength(4);
});

test('every placeholder is filled', () => {
  expect(text).not.toMatch(/\{\{\w+\}\}/);
});

test("the host page's CSP is the one `npm run serve` computes from the same config", () => {
  // Code only from Contact's origin (the one section granted script) and the override origin (issue 46).
  const csp = contentSecurityPolicy(
    ['https://cdn.example', 'https://contact.example', 'https://staging.example'],
    ['https://contact.example', 'https://staging.example'],
  );
  expect(text).toContain(`add_header Content-Security-Policy "${csp}" always;`);
});

test('precompressed files are served as they are', () => {
  expect(text).toContain('load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;');
  expect(text).toContain('brotli_static on;');
  expect(text).toContain('gzip_static on;');
});

test('without the brotli module, gzip only, and nothing refers to the module', () => {
  const gzipOnly = nginxConfig({ ...options, brotliModule: undefined });
  expect(gzipOnly).not.toMatch(/^\s*(load_module|brotli_static)/m);
  expect(gzipOnly).toContain('gzip_static on;');
});

test('one listen address when asked, IPv6 in brackets', () => {
  expect(nginxConfig({ ...options, listenHost: '127.0.0.1' })).toContain('listen 127.0.0.1:8083;');
  expect(nginxConfig({ ...options, listenHost: '::1' })).toContain('listen [::1]:8080;');
});

test('a path nginx would misread is refused with the reason, not written', () => {
  expect(() => nginxConfig({ ...options, configPath: '/srv/my config.json' })).toThrow('cannot take the path');
  expect(() => nginxConfig({ ...options, rootDir: '/srv/x;y' })).toThrow('cannot take the path');
});

test('only GET and HEAD, hidden files 404, hashed files immutable', () => {
  expect(text).toContain('if ($request_method !~ ^(GET|HEAD)$) {\n      return 405;');
  expect(text).toContain('location ~ /\\. {\n      return 404;');
  expect(text).toContain('add_header Cache-Control "public, max-age=31536000, immutable";');
});

test('every block of headers sends HSTS over https only', () => {
  expect(text).toContain('map $scheme $portico_hsts {\n    https "max-age=31536000";\n    default "";\n  }');
  const blocks = text
    .split(/location [^{]*\{/)
    .slice(1)
    .map((block) => block.slice(0, block.indexOf('}')));
  for (const block of blocks.filter((body) => body.includes('add_header'))) {
    expect(block).toContain('add_header Strict-Transport-Security $portico_hsts always;');
  }
});

test("what nginx proxies to the Node server carries Host, the X-Forwarded-* headers it trusts and nginx's request id", () => {
  for (const line of [
    'proxy_set_header X-Request-Id $request_id;',
    'proxy_set_header Host $host;',
    'proxy_set_header X-Forwarded-Host $http_host;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  ]) {
    expect(text).toContain(line);
  }
});

/** The body of the first `location <match> {` block. */
function location(config: string, match: string): string | undefined {
  const start = config.indexOf(`location ${match} {`);
  return start === -1 ? undefined : config.slice(start, config.indexOf('\n    }', start));
}

describe('server rendering (the default)', () => {
  test("the page, config.json, /theme.css, the sections' stylesheets and manifests, /sitemap.xml, /robots.txt, /api/ and the form's /contact go to the Node server, static files stay with nginx", () => {
    const proxied = [
      '= /',
      '= /index.html',
      '= /config.json',
      '= /theme.css',
      '^~ /section-styles/',
      '^~ /section-manifest/',
      '= /sitemap.xml',
      '= /robots.txt',
      '/api/',
      '= /contact',
    ];
    for (const match of proxied) expect(location(text, match)).toContain('proxy_pass http://portico_node;');
    // Those ten, Contact's manifest (the one section granted script) first to the Node server too, and with none
    // answering to Contact's origin (staticManifests); nothing else: hashed files and the remotes are nginx's.
    expect(location(text, '= /section-manifest/contact')).toContain(
      'proxy_pass http://portico_node;\n      error_page 502 503 504 = @static_manifest_contact;',
    );
    expect(text.match(/proxy_pass .*;/g)).toEqual([
      ...proxied.map(() => 'proxy_pass http://portico_node;'),
      'proxy_pass http://portico_node;',
      'proxy_pass https://contact.example;',
    ]);
  });

  test("with no Node server answering, config.json is the operator's file as written (the fresh-install state)", () => {
    expect(location(text, '= /config.json')).toContain('error_page 502 503 504 = @static_config;');
    const fallback = location(text, '@static_config')!;
    expect(fallback).toContain('root /srv/portico;');
    expect(fallback).toContain('try_files /config.json @config_unavailable;');
  });

  test('without server rendering, config.json is the operator file', () => {
    expect(location(nginxConfig({ ...options, ssr: false }), '= /config.json')).toContain('alias /srv/portico/config.json;');
  });

  test('the upstream names the Node server beside nginx, or every one given', () => {
    expect(text).toContain('upstream portico_node {\n    server 127.0.0.1:8090 max_fails=0;\n    keepalive 16;\n  }');
    const shared = nginxConfig({ ...options, upstreams: ['10.0.0.5:8080', '10.0.0.6:8080', '[::1]:9000'] });
    expect(shared).toContain('    server 10.0.0.5:8080 max_fails=0;\n    server 10.0.0.6:8080 max_fails=0;\n    server [::1]:9000 max_fails=0;\n');
    expect(shared).toContain('proxy_http_version 1.1;');
  });

  test('an upstream that is not host:port is refused with the reason', () => {
    for (const bad of ['10.0.0.5', 'http://10.0.0.5:8080', '10.0.0.5:8080; evil', 'a:99999']) {
      expect(() => nginxConfig({ ...options, upstreams: [bad] })).toThrow('an upstream is host:port');
    }
    expect(() => nginxConfig({ ...options, upstreams: [] })).toThrow('at least one upstream');
  });

  test("a Node server that does not answer leaves the visitor today's static page, with its headers", () => {
    expect(location(text, '= /')).toContain('error_page 502 503 504 = @static_page;');
    const fallback = location(text, '@static_page')!;
    expect(fallback).toContain('try_files /index.html =404;');
    expect(fallback).toContain('add_header Content-Security-Policy');
  });

  test("the proxied page carries no header of nginx's: the Node server sends its own", () => {
    for (const match of ['= /', '= /index.html', '= /theme.css', '= /sitemap.xml', '/api/']) expect(location(text, match)).not.toContain('add_header');
  });

  test('GET and HEAD only, except the contact API and the form without JavaScript, which posts 64 KB at most', () => {
    expect(text).toContain('"~^(GET|HEAD) " 0;\n    "~^[A-Z]+ /api/" 0;\n    "~^[A-Z]+ /contact$" 0;\n    default 1;');
    expect(location(text, '= /contact')).toContain('client_max_body_size 64k;');
    expect(text).toContain('if ($portico_method_denied) {\n      return 405;');
  });
});

describe('--no-ssr: pure static hosting, as before', () => {
  const staticText = nginxConfig({ ...options, ssr: false });

  test('nothing is proxied but each manifest the page reads from its own origin, to its configured origin; no upstream is declared', () => {
    expect(staticText.match(/proxy_pass .*;/g)).toEqual(['proxy_pass https://contact.example;']);
    expect(staticText).not.toContain('upstream portico_node');
    expect(staticText).not.toMatch(/\{\{\w+\}\}|# (BEGIN|END) (static|server-rendered)/);
  });

  test('the page is index.html with the host page headers; /api/ is not allowed', () => {
    expect(location(staticText, '= /')).toContain('rewrite ^ /index.html last;');
    expect(location(staticText, '= /index.html')).toContain('add_header Content-Security-Policy');
    expect(staticText).not.toContain('location /api/');
    expect(staticText).not.toContain('location = /contact');
    expect(staticText).toContain('"~^(GET|HEAD) " 0;\n    default 1;');
  });
});

describe("the manifests nginx relays for its own page (its CSP's connect-src is 'self')", () => {
  test.each([true, false])('ssr %s: only the configured URL of a section granted script is proxied, anything else is 403', (ssr) => {
    const relay = location(nginxConfig({ ...options, ssr }), ssr ? '@static_manifest_contact' : '= /section-manifest/contact')!;
    // The `url` parameter exactly as the page's loader writes it (sectionManifestPath).
    expect(relay).toContain('if ($arg_url != "https%3A%2F%2Fcontact.example%2Fv2%2Fmf-manifest.json") {\n        return 403;');
    expect(relay).toContain('rewrite ^ "/v2/mf-manifest.json?" break;');
    expect(relay).toContain('proxy_pass https://contact.example;');
    expect(relay).toContain('add_header Cache-Control "no-store" always;');
  });

  test('a section granted no script has none; granted by the integrator, it has', () => {
    expect(text).not.toContain('/section-manifest/home');
    const granted = nginxConfig({ ...options, config: parseConfig({ ...config, sections: { home: { interactive: true } } }) });
    expect(location(granted, '@static_manifest_home')).toContain('proxy_pass https://cdn.example;');
  });
});

test('has nothing of the operator console: no location, root or upstream of it or of the control port', () => {
  expect(text).not.toMatch(/console/);
  expect(text).not.toMatch(/:8084\b/);
  expect(text).not.toMatch(/\/api\/(session|events|audit|tokens|alerts|servers)/);
});
