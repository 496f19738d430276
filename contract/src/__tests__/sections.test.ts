import { APP_DIRS, APP_NAMES, basePort, controlPort, DEFAULT_PORT, defaultRemoteUrls, EXPOSED_SECTION, portOf, remoteNameOf, SECTION_IDS } from '../sections';

test('the three sections, in tab order', () => {
  expect(SECTION_IDS).toEqual(['home', 'about', 'contact']);
});

test('each remote has its own federation name and exposes the same key', () => {
  expect(SECTION_IDS.map(remoteNameOf)).toEqual(['portico_home', 'portico_about', 'portico_contact']);
  expect(EXPOSED_SECTION).toBe('./section');
});

test('the host and one remote per section, each in its own folder, in port order', () => {
  expect(APP_NAMES).toEqual(['host', 'home', 'about', 'contact']);
  expect(APP_NAMES.map((app) => APP_DIRS[app])).toEqual(['host', 'remote-home', 'remote-about', 'remote-contact']);
});

test('without PORT the apps are on 8080 to 8083', () => {
  expect(DEFAULT_PORT).toBe(8080);
  expect(basePort({})).toBe(8080);
  expect(basePort({ PORT: '' })).toBe(8080);
  expect(APP_NAMES.map((app) => portOf(app, {}))).toEqual([8080, 8081, 8082, 8083]);
});

test('PORT=N moves the host to N, the remotes to N+1 to N+3 and the control API to N+4', () => {
  expect(APP_NAMES.map((app) => portOf(app, { PORT: '9100' }))).toEqual([9100, 9101, 9102, 9103]);
  expect(controlPort({ PORT: '9100' })).toBe(9104);
  expect(controlPort({})).toBe(8084);
  expect(basePort({ PORT: '65531' })).toBe(65_531);
});

test.each(['0', '65532', '80.5', 'abc', '-1'])('PORT=%s is refused with the reason', (port) => {
  expect(() => basePort({ PORT: port })).toThrow(`PORT must be a whole number from 1 to 65531 (it and the next four are used), got "${port}"`);
});

test("the default remotes are each section's manifest on its own port of the given host", () => {
  expect(defaultRemoteUrls('192.168.1.5', 9100)).toEqual({
    home: 'http://192.168.1.5:9101/mf-manifest.json',
    about: 'http://192.168.1.5:9102/mf-manifest.json',
    contact: 'http://192.168.1.5:9103/mf-manifest.json',
  });
});
