import { parseConfig } from '@portico/shared-config/config';
import { contentSecurityPolicy, HEADER_LIMIT_BYTES, dataHeaders, hostPageHeaders, originOf, pageHeaders, remoteOrigins } from '../security-headers';

const directives = (policy: string) => Object.fromEntries(policy.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]));

/** config.json as the server reads it, once per request. */
const read = (raw: unknown) => parseConfig(raw);

describe('remoteOrigins', () => {
  test('takes the origins of the remotes and of allowedRemoteOrigins, once each', () => {
    expect(
      remoteOrigins(
        read({
          remotes: {
            home: 'https://home.example/mf-manifest.json',
            about: 'https://cdn.example:8443/about/v3/mf-manifest.json?x=1',
            contact: 'https://cdn.example:8443/contact/mf-manifest.json',
          },
          allowedRemoteOrigins: ['https://staging.example', 'https://home.example'],
        }),
      ),
    ).toEqual(['https://home.example', 'https://cdn.example:8443', 'https://staging.example']);
  });

  test.each([
    ['a non-http scheme', 'javascript:alert(1)'],
    ['a data URL', 'data:text/javascript,1'],
    ['not a URL', 'home'],
    ['a number', 42],
    ['a host that would end the directive', 'https://evil.example;script-src'],
    ['a quoted keyword', "https://x.example'unsafe-inline'"],
  ])('leaves out %s', (_what, value) => {
    expect(remoteOrigins(read({ remotes: { home: value }, allowedRemoteOrigins: [value] }))).toEqual([]);
  });

  test.each([[null], ['text'], [[]], [{ remotes: 'x', allowedRemoteOrigins: 'y' }]])(
    'a config that is not usable (%p) gives no origins, never an error',
    (config) => {
      expect(remoteOrigins(read(config))).toEqual([]);
    },
  );

  test('IPv6 and ports survive', () => {
    expect(originOf('http://[::1]:8081/mf-manifest.json')).toBe('http://[::1]:8081');
  });
});

describe('contentSecurityPolicy', () => {
  const policy = directives(contentSecurityPolicy(['https://cdn.example', 'http://localhost:8083']));

  test('img-src allows self and the remotes, nothing else', () => {
    expect(policy['img-src']).toEqual(["'self'", 'https://cdn.example', 'http://localhost:8083']);
  });

  test("style-src allows the page's own origin alone: sections' stylesheets are its scoped copies", () => {
    expect(policy['style-src']).toEqual(["'self'"]);
  });

  test('script-src allows self and the origins given for code, which default to the remotes', () => {
    expect(policy['script-src']).toEqual(["'self'", 'https://cdn.example', 'http://localhost:8083']);
    expect(directives(contentSecurityPolicy(['https://cdn.example', 'http://localhost:8083'], ['http://localhost:8083']))['script-src']).toEqual([
      "'self'",
      'http://localhost:8083',
    ]);
  });

  test("connect-src allows the page's own origin alone: a section's script can send nothing to its server, nor anyone's", () => {
    expect(policy['connect-src']).toEqual(["'self'"]);
  });

  test('forbids inline code, eval, plugins, framing, base and foreign form targets', () => {
    const text = contentSecurityPolicy(['https://cdn.example']);
    expect(text).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['form-action']).toEqual(["'self'"]);
    expect(policy['default-src']).toEqual(["'self'"]);
  });

  test('an origin at an IPv6 literal, which a CSP source cannot name, is named by scheme and port alone; a name stays exact', () => {
    const v6 = directives(contentSecurityPolicy(['http://[::1]:8083', 'http://[::1]:8081', 'https://[2001:db8::1]', 'https://cdn.example']));
    expect(v6['script-src']).toEqual(["'self'", 'http://*:8083', 'http://*:8081', 'https://*:443', 'https://cdn.example']);
    expect(v6['img-src']).toEqual(v6['script-src']);
  });

  test('with no remotes, only the page itself', () => {
    expect(directives(contentSecurityPolicy([]))['script-src']).toEqual(["'self'"]);
  });
});

test('page headers add nosniff, a referrer policy and a deny-all permissions policy', () => {
  const headers = pageHeaders([]);
  expect(headers['X-Content-Type-Options']).toBe('nosniff');
  expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
    expect(headers['Permissions-Policy']).toContain(`${feature}=()`);
  }
});

test('config.json may run and embed nothing', () => {
  expect(dataHeaders()['Content-Security-Policy']).toBe("default-src 'none'; frame-ancestors 'none'");
});

describe("the host page's manifest preloads (Link)", () => {
  const config = {
    remotes: {
      home: 'http://localhost:8081/mf-manifest.json',
      about: 'javascript:alert(1)',
      contact: 'https://cdn.example.com/contact/mf-manifest.json',
    },
  };

  const contactPreload =
    '</section-manifest/contact?url=https%3A%2F%2Fcdn.example.com%2Fcontact%2Fmf-manifest.json>; rel=preload; as=fetch; crossorigin=anonymous';

  test("preloads each http(s) manifest of a section granted script, through the page's own origin, as the fetch that uses it", () => {
    expect(hostPageHeaders(read(config)).Link).toBe(contactPreload);
    expect(hostPageHeaders(read({ ...config, sections: { home: { interactive: true } } })).Link).toBe(
      `</section-manifest/home?url=http%3A%2F%2Flocalhost%3A8081%2Fmf-manifest.json>; rel=preload; as=fetch; crossorigin=anonymous, ${contactPreload}`,
    );
  });

  test('leaves out a section this visit overrides, by the rule the page applies: an override it refuses keeps the preload', () => {
    const override = '?remote.contact=https%3A%2F%2Fpreview.example%2Fmf-manifest.json';
    expect(hostPageHeaders(read({ ...config, allowedRemoteOrigins: ['https://preview.example'] }), override).Link).toBeUndefined();
    // Not an allowed origin: the page loads the configured Contact, so it is preloaded as usual.
    expect(hostPageHeaders(read(config), override).Link).toBe(hostPageHeaders(read(config)).Link);
  });

  test('the host page sends them beside its policy; nothing without remotes', () => {
    expect(hostPageHeaders(read(config)).Link).toContain('rel=preload');
    expect(hostPageHeaders(read({})).Link).toBeUndefined();
  });
});

describe('the host page is built from the parsed config.json only', () => {
  const remotes = {
    home: 'http://localhost:8081/mf-manifest.json',
    about: 'http://localhost:8082/mf-manifest.json',
    contact: 'http://localhost:8083/mf-manifest.json',
  };

  test("an added section's origin is in the policy while it is shown, and leaves it once hidden", () => {
    const calculator = { labels: { en: 'Repayments', id: 'Cicilan' }, interactive: true };
    const policyWith = (hidden: boolean) =>
      directives(
        hostPageHeaders(
          read({ remotes: { ...remotes, 'repay-calc': 'https://calc.example/mf-manifest.json' }, sections: { 'repay-calc': { ...calculator, hidden } } }),
          '',
          () => undefined,
        )['Content-Security-Policy']!,
      );
    expect(policyWith(false)['script-src']).toContain('https://calc.example');
    expect(policyWith(false)['img-src']).toContain('https://calc.example');
    expect(policyWith(true)['script-src']).not.toContain('https://calc.example');
    expect(policyWith(true)['img-src']).not.toContain('https://calc.example');
  });

  test('a remotes key that is not a section, and allowed origins the page refuses, are left out and named in the log', () => {
    const log: string[] = [];
    const headers = hostPageHeaders(
      read({
        remotes: { ...remotes, extra: 'https://extra.example/mf-manifest.json' },
        allowedRemoteOrigins: ['https://ok.example', 'https://cdn.example/with/path'],
      }),
      '',
      (line) => log.push(line),
    );
    const policy = headers['Content-Security-Policy']!;
    expect(directives(policy)['script-src']).toEqual(["'self'", 'http://localhost:8083']);
    expect(directives(policy)['img-src']).toEqual(["'self'", 'http://localhost:8081', 'http://localhost:8082', 'http://localhost:8083']);
    expect(headers.Link).not.toContain('extra.example');
    expect(log).toEqual([
      expect.stringMatching(/^config\.json: left out of the page's CSP and preloads: allowedRemoteOrigins\.1 \(must be an origin/),
      expect.stringMatching(/^config\.json: left out of the page's CSP and preloads: remotes\.extra \(no section is listed as "extra"/),
    ]);
  });

  test('a section whose pin is malformed is not loaded by the page, so it is not in the policy either', () => {
    const headers = hostPageHeaders(read({ remotes, remoteIntegrity: { contact: 'sha384-short' } }));
    expect(headers['Content-Security-Policy']).not.toContain('localhost:8083');
    expect(headers.Link).toBeUndefined();
  });

  test('a section granted no script (Home, About by default) loads no code: its origin is in no script-src, whatever its build declares', () => {
    const granted = (config: object) => directives(hostPageHeaders(read({ remotes, ...config }))['Content-Security-Policy']!)['script-src'];
    expect(granted({})).toEqual(["'self'", 'http://localhost:8083']);
    expect(granted({ sections: { contact: { interactive: false } } })).toEqual(["'self'"]);
    expect(granted({ sections: { home: { interactive: true } } })).toEqual(["'self'", 'http://localhost:8081', 'http://localhost:8083']);
    // A grant that cannot be read fails closed.
    expect(granted({ sections: { contact: { interactive: 'yes' } } })).toEqual(["'self'"]);
  });

  test('thousands of allowed origins keep the policy under the limit: the remotes stay, the overrides that do not fit are named', () => {
    const log: string[] = [];
    const many = Array.from({ length: 3000 }, (_, i) => `https://preview-${i}.example`);
    const headers = hostPageHeaders(read({ remotes, allowedRemoteOrigins: many }), '', (line) => log.push(line));
    const policy = headers['Content-Security-Policy']!;
    expect(Buffer.byteLength(policy)).toBeLessThanOrEqual(HEADER_LIMIT_BYTES);
    expect(directives(policy)['script-src']).toEqual(expect.arrayContaining(['http://localhost:8083', 'https://preview-0.example']));
    expect(log).toEqual([expect.stringMatching(/^config\.json: the Content-Security-Policy would be over 8192 bytes: left out \d+ of allowedRemoteOrigins/)]);
  });

  test('a manifest URL too long for the Link header is not preloaded, and the log says so', () => {
    const log: string[] = [];
    const long = `https://cdn.example/${'a'.repeat(HEADER_LIMIT_BYTES)}/mf-manifest.json`;
    const headers = hostPageHeaders(read({ remotes: { ...remotes, contact: long } }), '', (line) => log.push(line));
    expect(headers.Link).toBeUndefined();
    expect(log).toEqual([expect.stringContaining('the Link header would be over 8192 bytes: /section-manifest/contact?url=https%3A%2F%2Fcdn.example%2Faaa')]);
  });
});
