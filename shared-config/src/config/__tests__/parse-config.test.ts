import { sampleConfig } from '@portico/testing/sample-config';
import { copyrightIn, isDocumentProblem, sectionGrant } from '../config-rules';
import { parseConfig } from '../parse-config';

const fieldsOf = (raw: unknown) => parseConfig(raw).problems.map((problem) => problem.field);

test('a complete config has no problems and is kept as given', () => {
  const { config, problems } = parseConfig(sampleConfig);
  expect(problems).toEqual([]);
  expect(config).toEqual(sampleConfig);
});

test.each(['comName', 'email', 'address', 'copyright', 'remotes'] as const)('a missing %s is named', (field) => {
  const { [field]: _removed, ...rest } = sampleConfig;
  const { problems } = parseConfig(rest);
  expect(problems).toEqual([{ field, message: expect.stringContaining('missing') }]);
});

test.each([
  ['comName', 42, 'expected string, got number'],
  ['email', 'not an address', 'is not a valid email'],
  ['address', '   ', 'must not be empty'],
  ['copyright', null, 'expected string, got null'],
  ['remotes', 'http://x', 'must be an object'],
  ['allowedRemoteOrigins', 'https://cdn.example.com', 'expected array, got string'],
])('a wrongly typed %s is named with what is wrong', (field, value, message) => {
  const { config, problems } = parseConfig({ ...sampleConfig, [field]: value });
  expect(problems).toEqual([{ field, message }]);
  expect(config).not.toHaveProperty(field, value);
});

test('each bad remote URL is named on its own and the good ones are kept', () => {
  const { config, problems } = parseConfig({
    ...sampleConfig,
    remotes: { home: 'javascript:alert(1)', about: sampleConfig.remotes.about },
  });
  expect(problems.map((problem) => problem.field)).toEqual(['remotes.home', 'remotes.contact']);
  expect(config.remotes).toEqual({ about: sampleConfig.remotes.about });
});

test('a remotes key that is no section id is named and left out, so nothing loads from it', () => {
  const { config, problems } = parseConfig({
    ...sampleConfig,
    remotes: { ...sampleConfig.remotes, 'Evil!': 'https://evil.example/mf-manifest.json' },
  });
  expect(problems).toEqual([{ field: 'remotes.Evil!', message: expect.stringContaining('is not a section') }]);
  expect(config.remotes).toEqual(sampleConfig.remotes);
});

test('an allowed origin with a path, or of another scheme, is named by its index', () => {
  expect(fieldsOf({ ...sampleConfig, allowedRemoteOrigins: ['https://ok.example', 'https://cdn.example/path', 'ftp://x.example'] })).toEqual([
    'allowedRemoteOrigins.1',
    'allowedRemoteOrigins.2',
  ]);
});

test('good fields survive beside bad ones, so the page renders what it safely can', () => {
  const { config } = parseConfig({ ...sampleConfig, email: 5 });
  expect(config.comName).toBe(sampleConfig.comName);
  expect(config.email).toBeUndefined();
});

test.each([[null], [[]], ['text'], [7]])('a document that is not an object (%p) is reported as such', (raw) => {
  expect(parseConfig(raw).problems).toEqual([{ field: '(document)', message: 'must be a JSON object' }]);
});

test('text values are kept as plain strings, markup included', () => {
  const { config } = parseConfig({ ...sampleConfig, comName: '<img src=x onerror=alert(1)>' });
  expect(config.comName).toBe('<img src=x onerror=alert(1)>');
});

test('remoteLoading within its bounds is kept', () => {
  const { config, problems } = parseConfig({ ...sampleConfig, remoteLoading: { deadlineMs: 4000, retries: 0 } });
  expect(problems).toEqual([]);
  expect(config.remoteLoading).toEqual({ deadlineMs: 4000, retries: 0 });
});

test('remoteLoading is optional, and so is each of its fields', () => {
  expect(parseConfig(sampleConfig).config.remoteLoading).toBeUndefined();
  expect(parseConfig({ ...sampleConfig, remoteLoading: { retries: 3 } })).toEqual({
    config: { ...sampleConfig, remoteLoading: { retries: 3 } },
    problems: [],
    deprecated: [],
  });
});

test.each([
  [{ deadlineMs: 999 }, 'remoteLoading.deadlineMs', 'must be a whole number from 1000 to 10000'],
  [{ deadlineMs: 10_001 }, 'remoteLoading.deadlineMs', 'must be a whole number from 1000 to 10000'],
  [{ deadlineMs: 2500.5 }, 'remoteLoading.deadlineMs', 'must be a whole number from 1000 to 10000'],
  [{ deadlineMs: '9000' }, 'remoteLoading.deadlineMs', 'expected number, got string'],
  [{ retries: -1 }, 'remoteLoading.retries', 'must be a whole number from 0 to 5'],
  [{ retries: 6 }, 'remoteLoading.retries', 'must be a whole number from 0 to 5'],
  [{ retries: true }, 'remoteLoading.retries', 'expected number, got boolean'],
])('a remoteLoading of %p is named with what is wrong, and the default is used', (remoteLoading, field, message) => {
  const { config, problems } = parseConfig({ ...sampleConfig, remoteLoading });
  expect(problems).toEqual([{ field, message }]);
  expect(config.remoteLoading).toEqual({});
});

test('a good remoteLoading field survives beside a bad one', () => {
  const { config, problems } = parseConfig({ ...sampleConfig, remoteLoading: { deadlineMs: 5000, retries: 9 } });
  expect(problems.map((problem) => problem.field)).toEqual(['remoteLoading.retries']);
  expect(config.remoteLoading).toEqual({ deadlineMs: 5000 });
});

test('contact.retentionDays from 1 to 3650 is kept; contact is optional', () => {
  expect(parseConfig(sampleConfig).config.contact).toBeUndefined();
  for (const retentionDays of [1, 90, 3650]) {
    expect(parseConfig({ ...sampleConfig, contact: { retentionDays } })).toEqual({
      config: { ...sampleConfig, contact: { retentionDays } },
      problems: [],
      deprecated: [],
    });
  }
});

test.each([
  [{ retentionDays: 0 }, 'contact.retentionDays', 'must be a whole number from 1 to 3650'],
  [{ retentionDays: 3651 }, 'contact.retentionDays', 'must be a whole number from 1 to 3650'],
  [{ retentionDays: 30.5 }, 'contact.retentionDays', 'must be a whole number from 1 to 3650'],
  [{ retentionDays: '180' }, 'contact.retentionDays', 'expected number, got string'],
  [{ retentionDay: 180 }, 'contact.retentionDay', 'is not a known field'],
])('a contact of %p is named with what is wrong, and the default is used', (contact, field, message) => {
  const { config, problems } = parseConfig({ ...sampleConfig, contact });
  expect(problems).toEqual([{ field, message }]);
  expect(config.contact).toEqual({});
});

test('a contact that is not an object is named', () => {
  expect(parseConfig({ ...sampleConfig, contact: 180 }).problems).toEqual([{ field: 'contact', message: expect.stringContaining('must be an object') }]);
});

test('a remoteLoading that is not an object is named', () => {
  expect(parseConfig({ ...sampleConfig, remoteLoading: 9000 }).problems).toEqual([
    { field: 'remoteLoading', message: expect.stringContaining('must be an object') },
  ]);
});

describe('legal', () => {
  const india = sampleConfig.legal!.IN!;
  const indonesia = sampleConfig.legal!.ID!;
  const parseLegal = (value: unknown) => parseConfig({ ...sampleConfig, legal: value });

  test('is optional: without it the config has no problems and no disclosures', () => {
    const { legal: _removed, ...rest } = sampleConfig;
    const { config, problems } = parseConfig(rest);
    expect(problems).toEqual([]);
    expect(config.legal).toBeUndefined();
  });

  test('holds a block per market, each kept as given, trimmed; one market alone is valid', () => {
    const { config, problems, deprecated } = parseLegal({ ID: { ...indonesia, companyName: `  ${indonesia.companyName}  ` } });
    expect(problems).toEqual([]);
    expect(deprecated).toEqual([]);
    expect(config.legal).toEqual({ ID: indonesia });
  });

  test.each([
    ['companyName', undefined, 'is missing (expected string)'],
    ['companyName', ' ', 'must not be empty'],
    ['registrationNumber', 7, 'expected string, got number'],
    ['licenceNumber', '', 'must not be empty'],
    ['registeredAddress', ['a'], 'expected string, got array'],
    ['website', 'javascript:alert(1)', 'is not a valid http(s) URL'],
    ['phone', 'call us', 'must be a phone number such as +91 80 4567 8900'],
    ['grievanceOfficer', 'Asha', 'must be an object'],
    ['association', 42, 'expected string, got number'],
  ])('a bad legal.ID.%s (%p) is named with what is wrong; the rest of the block and the other market are kept', (key, value, message) => {
    const { config, problems } = parseLegal({ IN: india, ID: { ...indonesia, [key]: value } });
    expect(problems).toEqual([{ field: `legal.ID.${key}`, message }]);
    expect(config.legal?.ID).not.toHaveProperty(key);
    expect(Object.keys(config.legal?.ID ?? {}).sort()).toEqual(
      Object.keys(indonesia)
        .filter((name) => name !== key)
        .sort(),
    );
    expect(config.legal?.IN).toEqual(india);
  });

  test.each([
    ['name', undefined, 'is missing (expected string)'],
    ['email', 'grievance at portico', 'is not a valid email'],
    ['phone', '12', 'must be a phone number such as +91 80 4567 8900'],
  ])("a bad legal.IN.grievanceOfficer.%s is named, the officer's other fields kept", (key, value, message) => {
    const officer = { ...india.grievanceOfficer!, [key]: value };
    const { config, problems } = parseLegal({ IN: { ...india, grievanceOfficer: officer } });
    expect(problems).toEqual([{ field: `legal.IN.grievanceOfficer.${key}`, message }]);
    expect(config.legal?.IN?.grievanceOfficer).not.toHaveProperty(key);
  });

  test('an unknown key or market is named, so a misspelt licence number or market is not silently dropped', () => {
    const { licenceNumber, ...rest } = india;
    const { config, problems } = parseLegal({
      IN: { ...rest, licenseNumber: licenceNumber, grievanceOfficer: { ...india.grievanceOfficer, mail: 'x' } },
      PH: indonesia,
    });
    expect(problems).toEqual([
      { field: 'legal.PH', message: expect.stringContaining('is not a market (IN, ID)') },
      { field: 'legal.IN.licenseNumber', message: 'is not a known field' },
      { field: 'legal.IN.grievanceOfficer.mail', message: 'is not a known field' },
    ]);
    expect(Object.keys(config.legal ?? {})).toEqual(['IN']);
  });

  test.each(['IN', 'ID'] as const)('the old single object with market %s still works, for that market only, and says how to move', (market) => {
    const { config, problems, deprecated } = parseLegal({ market, ...india });
    expect(problems).toEqual([]);
    expect(config.legal).toEqual({ [market]: india });
    expect(deprecated).toEqual([{ field: 'legal', message: expect.stringContaining(`into "legal": { "${market}": { … } }`) }]);
  });

  test.each([
    [undefined, 'is missing (expected one of "IN", "ID")'],
    ['PH', 'must be one of "IN", "ID"'],
  ])('an old single object whose market is %p shows no lender in either market, and is named', (market, message) => {
    const { config, problems } = parseLegal({ market, ...india, licenseNumber: 'x' });
    expect(problems).toEqual([
      { field: 'legal.market', message },
      { field: 'legal.licenseNumber', message: 'is not a known field' },
    ]);
    expect(config.legal).toBeUndefined();
  });

  test.each([['IN'], [null], [[india]]])('a legal that is not an object (%p) is named', (value) => {
    const { config, problems } = parseLegal(value);
    expect(problems).toEqual([{ field: 'legal', message: expect.stringMatching(/^must be an object such as \{ "IN"/) }]);
    expect(config.legal).toBeUndefined();
  });

  test('a market block that is not an object is named, and that market has no lender', () => {
    const { config, problems } = parseLegal({ IN: 'Portico Credit', ID: indonesia });
    expect(problems).toEqual([{ field: 'legal.IN', message: expect.stringContaining('must be an object') }]);
    expect(config.legal).toEqual({ ID: indonesia });
  });

  test('markup in legal values is kept as plain text', () => {
    const { config } = parseLegal({ IN: { ...india, companyName: '<script>alert(1)</script> Ltd' } });
    expect(config.legal?.IN?.companyName).toBe('<script>alert(1)</script> Ltd');
  });
});

describe('copyrightByLanguage', () => {
  const parseCopyright = (value: unknown) => parseConfig({ ...sampleConfig, copyrightByLanguage: value });

  test('gives the footer its line in a language; the line as written stays for the others', () => {
    const { config, problems } = parseCopyright({ id: '© 2026 Portico. Hak cipta dilindungi.' });
    expect(problems).toEqual([]);
    expect([copyrightIn(config, 'en'), copyrightIn(config, 'id')]).toEqual([sampleConfig.copyright, '© 2026 Portico. Hak cipta dilindungi.']);
  });

  test('a language the page does not speak, or an empty line, is named and left out', () => {
    const { config, problems } = parseCopyright({ fr: 'Tous droits réservés', id: ' ' });
    expect(problems).toEqual([
      { field: 'copyrightByLanguage.fr', message: 'is not a known field' },
      { field: 'copyrightByLanguage.id', message: 'must not be empty' },
    ]);
    expect(config.copyrightByLanguage).toBeUndefined();
    expect(copyrightIn(config, 'id')).toBe(sampleConfig.copyright);
  });
});

test('only a fault of the whole document (its URL, or not an object) is a document problem; a field is not', () => {
  const unreadable = { field: '/config.json', message: 'answered HTTP 503 instead of the configuration' };
  expect(isDocumentProblem(unreadable)).toBe(true);
  expect(parseConfig([]).problems.map(isDocumentProblem)).toEqual([true]);
  const fields = parseConfig({ ...sampleConfig, email: 'halo at kcn', legal: { ID: { ...sampleConfig.legal!.ID, licenceNumber: '' } } }).problems;
  expect(fields.map((problem) => [problem.field, isDocumentProblem(problem)])).toEqual([
    ['email', false],
    ['legal.ID.licenceNumber', false],
  ]);
});

describe('theme', () => {
  const theme = { background: '#fbf9f4', text: '#222222', primary: '#6b2d5c' };
  const parseTheme = (value: unknown) => parseConfig({ ...sampleConfig, theme: value });

  test('is optional: without it the page keeps its own colours', () => {
    const { config, problems } = parseConfig(sampleConfig);
    expect(problems).toEqual([]);
    expect(config.theme).toBeUndefined();
  });

  test('a readable theme is kept as given, and so is part of one', () => {
    expect(parseTheme(theme)).toEqual({ config: { ...sampleConfig, theme }, problems: [], deprecated: [] });
    expect(parseTheme({ primary: '#6B2D5C' }).config.theme).toEqual({ primary: '#6B2D5C' });
  });

  const notHex = 'must be a colour written #rrggbb, such as #0b5c6b';
  test.each([
    ['#fff', notHex],
    ['teal', notHex],
    ['rgb(0, 0, 0)', notHex],
    ['var(--x)', notHex],
    [42, 'expected string, got number'],
  ])('a colour of %p is named, and the rest of the theme kept', (value, message) => {
    const { config, problems } = parseTheme({ ...theme, primary: value });
    expect(problems).toEqual([{ field: 'theme.primary', message }]);
    expect(config.theme).toEqual({ background: theme.background, text: theme.text });
  });

  test('text too pale for its background is named with the ratio, and no theme is applied', () => {
    const { config, problems } = parseTheme({ ...theme, text: '#9a9a9a' });
    expect(problems).toEqual([{ field: 'theme.text', message: expect.stringContaining('text on the background 2.') }]);
    expect(problems[0]?.message).toMatch(/^too little contrast \(at least 4\.5:1 needed\): .*; the default colours are used$/);
    expect(config.theme).toBeUndefined();
  });

  test('a primary too pale for white button text is named, and no theme is applied', () => {
    const { config, problems } = parseTheme({ ...theme, primary: '#e08a3c' });
    expect(problems.map((problem) => problem.field)).toEqual(['theme.primary']);
    expect(problems[0]?.message).toContain('white button text on primary');
    expect(config.theme).toBeUndefined();
  });

  test('a background alone, too dark for the default text, is the field named', () => {
    const { problems } = parseTheme({ background: '#30343a' });
    expect(problems.map((problem) => problem.field)).toEqual(['theme.background']);
  });

  test('an unknown key is named, so a misspelt colour is not silently ignored', () => {
    const { config, problems } = parseTheme({ ...theme, backgroundColor: '#ffffff' });
    expect(problems).toEqual([{ field: 'theme.backgroundColor', message: 'is not a known field' }]);
    expect(config.theme).toEqual(theme);
  });

  test.each([['#ffffff'], [null], [[theme]]])('a theme that is not an object (%p) is named', (value) => {
    const { config, problems } = parseTheme(value);
    expect(problems).toEqual([{ field: 'theme', message: expect.stringContaining('must be an object') }]);
    expect(config.theme).toBeUndefined();
  });
});

describe('remoteIntegrity', () => {
  const pin = `sha384-${'A'.repeat(64)}`;

  test('is optional, and absent leaves the config as it was', () => {
    expect(parseConfig(sampleConfig).config).not.toHaveProperty('remoteIntegrity');
  });

  test('valid pins of sha256, sha384 and sha512 are kept', () => {
    const pins = { home: `sha256-${'B'.repeat(43)}=`, about: pin, contact: `sha512-${'C'.repeat(86)}==` };
    const { config, problems } = parseConfig({ ...sampleConfig, remoteIntegrity: pins });
    expect(problems).toEqual([]);
    expect(config.remoteIntegrity).toEqual(pins);
  });

  test('a malformed pin is named and its section is not loaded unchecked', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, remoteIntegrity: { contact: 'sha384-tooshort', home: pin } });
    expect(problems).toEqual([{ field: 'remoteIntegrity.contact', message: expect.stringContaining('the contact section is not loaded unchecked') }]);
    expect(config.remotes.contact).toBeUndefined();
    expect(config.remotes.home).toBe(sampleConfig.remotes.home);
    expect(config.remoteIntegrity).toEqual({ home: pin });
  });

  test('a key that is no section id is named and ignored', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, remoteIntegrity: { 'tab-legal': pin } });
    expect(problems.map((problem) => problem.field)).toEqual(['remoteIntegrity.tab-legal']);
    expect(config.remotes).toEqual(sampleConfig.remotes);
  });

  test('pins that are not an object are named, and no section is loaded unchecked', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, remoteIntegrity: pin });
    expect(problems.map((problem) => problem.field)).toEqual(['remoteIntegrity']);
    expect(config.remotes).toEqual({});
  });
});

test("a preview visit's note is kept whole, and a bad one is named and dropped", () => {
  const preview = { section: 'contact', release: 'contact-3', buildId: 'abc123', version: '1.0.0', expiresAt: '2026-11-26T10:00:00.000Z' };
  expect(parseConfig({ ...sampleConfig, preview }).config.preview).toEqual(preview);
  const broken = parseConfig({ ...sampleConfig, preview: { ...preview, section: 'Pricing!' }, previewRefused: 'lost' });
  expect(broken.config.preview).toBeUndefined();
  expect(broken.config.previewRefused).toBeUndefined();
  expect(broken.problems.map((problem) => problem.field)).toEqual(['preview.section', 'previewRefused']);
  expect(parseConfig({ ...sampleConfig, previewRefused: 'expired' }).config.previewRefused).toBe('expired');
});

describe('sections: the integrator grant of script per section', () => {
  test('a grant per section is kept, and a section not named keeps its built-in one', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, sections: { home: { interactive: true }, contact: { interactive: false } } });
    expect(problems).toEqual([]);
    expect(sectionGrant(config, 'home')).toEqual({ interactive: true });
    expect(sectionGrant(config, 'contact')).toEqual({ interactive: false });
    // About is static by default.
    expect(sectionGrant(config, 'about')).toEqual({ interactive: false });
    expect(sectionGrant(parseConfig(sampleConfig).config, 'contact')).toEqual({ interactive: true });
  });

  test('a grant that cannot be read is named and fails closed: no script', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, sections: { contact: { interactive: 'yes' }, home: true } });
    expect(problems).toEqual([
      { field: 'sections.contact.interactive', message: expect.stringContaining('must be true or false') },
      { field: 'sections.home.interactive', message: expect.stringContaining('must be true or false') },
    ]);
    expect(sectionGrant(config, 'contact')).toEqual({ interactive: false });
    expect(sectionGrant(config, 'home')).toEqual({ interactive: false });
  });

  test('a key that is no section id is named and grants nothing', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, sections: { 'tab-home': { interactive: true } } });
    expect(problems).toEqual([{ field: 'sections.tab-home', message: expect.stringContaining('is not a section') }]);
    expect(config.sections).toEqual({});
  });

  test('sections that is not an object is named, and every section runs no script', () => {
    const { config, problems } = parseConfig({ ...sampleConfig, sections: 'all' });
    expect(problems).toEqual([{ field: 'sections', message: expect.stringContaining('must be an object') }]);
    for (const id of ['home', 'about', 'contact'] as const) expect(sectionGrant(config, id)).toEqual({ interactive: false });
  });
});
