import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { controlHost, controlToken, controlUrl } from '../control-address';

describe('where the control API is', () => {
  it('is on loopback, port 8084, or PORT+4', () => {
    expect(controlHost({})).toBe('127.0.0.1');
    expect(controlUrl({})).toBe('http://127.0.0.1:8084');
    expect(controlUrl({ PORT: '9000' })).toBe('http://127.0.0.1:9004');
  });

  it('follows PORTICO_CONTROL_HOST (a wildcard reached on loopback) and PORTICO_CONTROL_URL', () => {
    expect(controlUrl({ PORTICO_CONTROL_HOST: '10.0.0.5' })).toBe('http://10.0.0.5:8084');
    expect(controlUrl({ PORTICO_CONTROL_HOST: '::' })).toBe('http://127.0.0.1:8084');
    expect(controlUrl({ PORTICO_CONTROL_HOST: 'fd00::5' })).toBe('http://[fd00::5]:8084');
    expect(controlUrl({ PORTICO_CONTROL_URL: 'https://control.lender.example/', PORT: '9000' })).toBe('https://control.lender.example');
    expect(() => controlUrl({ PORTICO_CONTROL_URL: 'file:///etc/passwd' })).toThrow('PORTICO_CONTROL_URL must be an http(s) URL');
  });
});

describe('the token a command sends', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(path.join(tmpdir(), 'portico-control-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('is PORTICO_TOKEN, else the data folder control-token, else none', () => {
    expect(controlToken({}, folder)).toBeUndefined();
    writeFileSync(path.join(folder, 'control-token'), 'from-the-file\n');
    expect(controlToken({}, folder)).toEqual({ token: 'from-the-file', from: path.join(folder, 'control-token') });
    expect(controlToken({ PORTICO_TOKEN: 'from-the-env' }, folder)).toEqual({ token: 'from-the-env', from: 'PORTICO_TOKEN' });
  });

  // root reads any file, so an unreadable token file cannot be made for it.
  (userInfo().uid === 0 ? it.skip : it)('says so when the file is there and this user may not read it', () => {
    writeFileSync(path.join(folder, 'control-token'), 'secret');
    chmodSync(path.join(folder, 'control-token'), 0o000);
    expect(() => controlToken({}, folder)).toThrow("run the command as the server's user, or set PORTICO_TOKEN");
  });
});
