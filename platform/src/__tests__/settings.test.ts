import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ENVIRONMENT, readSetting, readSettings } from '../settings';
import { SettingsError } from '../settings-error';

const where = { rootDir: '/srv/portico', invokedFrom: '/home/operator' };

test('with nothing set: the default ports, loopback for the control API, the page on localhost, the embedded database in data/', () => {
  const settings = readSettings({}, where);
  expect(settings).toMatchObject({
    port: 8080,
    controlPort: 8084,
    configPath: undefined,
    publicUrl: 'http://localhost:8080',
    contact: { dataDir: '/srv/portico/data', databaseUrl: undefined },
  });
  expect(settings.environment).toMatchObject({
    PORTICO_TRUST_PROXY: false,
    PORTICO_SSR: true,
    PORTICO_SSR_CACHE: true,
    PORTICO_HEALTH: true,
    PORTICO_CONTROL_HOST: '127.0.0.1',
    PORTICO_HEALTH_RETENTION_DAYS: 30,
    PORTICO_LOG_LEVEL: 'info',
  });
});

test('PORTICO_LOG_LEVEL takes a level in any case; anything else stops the start naming the variable and every level', () => {
  expect(readSettings({ PORTICO_LOG_LEVEL: ' Debug ' }, where).environment.PORTICO_LOG_LEVEL).toBe('debug');
  expect(() => readSettings({ PORTICO_LOG_LEVEL: 'verbose' }, where)).toThrow(
    'PORTICO_LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"',
  );
});

test('PORT moves every port; a relative PORTICO_CONFIG is taken from where the command was typed', () => {
  const settings = readSettings({ PORT: '9000', PORTICO_CONFIG: 'site/config.json', PORTICO_SSR: '0', PORTICO_SSR_BUDGET_MS: '250' }, where);
  expect(settings).toMatchObject({ port: 9000, controlPort: 9004, configPath: '/home/operator/site/config.json', publicUrl: 'http://localhost:9000' });
  expect(settings.environment).toMatchObject({ PORTICO_SSR: false, PORTICO_SSR_BUDGET_MS: 250 });
});

test.each([
  [{ PORTICO_SSR_BUDGET_MS: '0' }, 'PORTICO_SSR_BUDGET_MS must be a whole number of milliseconds from 1 to 10000, got "0"'],
  [{ PORT: '65533' }, 'PORT must be a whole number from 1 to 65531'],
  [{ PORTICO_SSR_UID: '65534' }, 'PORTICO_SSR_UID is replaced by PORTICO_SSR_UIDS'],
  [{ PORTICO_SSR_UIDS: '0-63' }, 'PORTICO_SSR_UIDS must be a range of user ids "first-last"'],
  [{ PORTICO_HOSTS: 'localhost,a b' }, 'PORTICO_HOSTS: "a b" is not a host name'],
  [{ PORTICO_CONTROL_HOSTS: 'control.internal,evil example' }, 'PORTICO_CONTROL_HOSTS: "evil example" is not a host name'],
  [{ PORTICO_WEBHOOK_URL: 'https://hooks.example' }, 'PORTICO_WEBHOOK_URL needs PORTICO_WEBHOOK_SECRET'],
])('a bad setting (%j) stops the start with an error naming it', (env, message) => {
  expect(() => readSettings(env, where)).toThrow(SettingsError);
  expect(() => readSettings(env, where)).toThrow(message);
});

test('a command reads only the settings it needs: a bad one it does not read is not its fault', () => {
  expect(readSetting({ PORT: 'not a port', PORTICO_TOKEN: ' t0ken ' }, 'PORTICO_TOKEN')).toBe('t0ken');
});

test('docs/settings.md names every setting, and no other', () => {
  const table = readFileSync(path.join(__dirname, '../../../docs/settings.md'), 'utf8');
  const named = new Set([...table.matchAll(/^\| `([A-Z_]+)`/gm)].map((match) => match[1]));
  expect([...named].sort()).toEqual(Object.keys(ENVIRONMENT.shape).sort());
});
