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
  config,
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
  const csp = contentSecurityPolicy(['https://cdn.example', 'https://contact.example', 'https://staging.example']);
  expect(text).toContain(`add_header Content-Security-Policy "${csp}" always;`);
});

test('config.json is served from the operator file; precompressed files are served as they are', () => {
  expect(text).toContain('alias /srv/portico/config.json;');
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
  const blocks = text.split(/location [^{]*\{/).slice(1).map((block) => block.slice(0, block.indexOf('}')));
  for (const block of blocks.filter((body) => body.includes('add_header'))) {
    expect(block).toContain('add_header Strict-Transport-Security $portico_hsts always;');
  }
});

test('what nginx proxies to the Node server carries Host and the X-Forwarded-* headers it trusts', () => {
  for (const line of [
    'proxy_set_header Host $http_host;',
    'proxy_set_header X-Forwarded-Host $http_host;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  ]) {
    expect(text).toContain(line);
  }
});

test('without --api-server, /api/ is not proxied and POST is refused everywhere', () => {
  expect(text).not.toContain('proxy_pass');
  expect(text).toContain('"~^[A-Z]+ /api/" 1;');
});

test('with API servers, /api/ goes to all of them with the forwarded headers, and only there may POST', () => {
  const proxied = nginxConfig({ ...options, apiServers: ['127.0.0.1:9080', '10.0.0.7:9080'] });
  expect(proxied).toContain('upstream portico_api {\n    server 127.0.0.1:9080;\n    server 10.0.0.7:9080;');
  expect(proxied).toContain('location /api/ {');
  for (const header of ['Host $http_host', 'X-Forwarded-For $proxy_add_x_forwarded_for', 'X-Forwarded-Proto $scheme', 'X-Forwarded-Host $http_host']) {
    expect(proxied).toContain(`proxy_set_header ${header};`);
  }
  expect(proxied).toContain('"~^[A-Z]+ /api/" 0;');
  expect(proxied.match(/location \/api\//g)).toHaveLength(1);
  expect(() => nginxConfig({ ...options, apiServers: ['127.0.0.1:9080; evil'] })).toThrow('is not host:port');
});
