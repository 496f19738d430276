import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { retentionDays } from '../retention';
import { contactSettings } from '../settings';

const where = { rootDir: '/srv/portico', invokedFrom: '/home/operator' };

describe('contact settings from the environment', () => {
  it('defaults to the embedded database in data/, 5 messages per 10 minutes, no channel', () => {
    expect(contactSettings({}, where)).toMatchObject({
      databaseUrl: undefined,
      dataDir: '/srv/portico/data',
      rateLimit: { max: 5, windowSeconds: 600 },
      webhook: undefined,
      mail: undefined,
    });
  });

  it('reads each setting, a relative data folder from where the command was typed', () => {
    const settings = contactSettings(
      {
        DATABASE_URL: 'postgres://portico@db.internal/portico',
        PORTICO_DATA_DIR: 'messages-data',
        PORTICO_CONTACT_RATE_LIMIT: '0',
        PORTICO_WEBHOOK_URL: 'https://hooks.lender.example/contact',
        PORTICO_WEBHOOK_SECRET: 's3cret',
        PORTICO_SMTP_URL: 'smtps://user:pass@mail.lender.example:465',
        PORTICO_MAIL_TO: 'contact@lender.example',
        PORTICO_MAIL_FROM: 'portico@lender.example',
      },
      where,
    );
    expect(settings).toMatchObject({
      databaseUrl: 'postgres://portico@db.internal/portico',
      dataDir: '/home/operator/messages-data',
      rateLimit: undefined,
      webhook: { url: 'https://hooks.lender.example/contact', secret: 's3cret' },
      mail: { smtpUrl: 'smtps://user:pass@mail.lender.example:465', to: 'contact@lender.example', from: 'portico@lender.example', allowPlaintext: false },
    });
  });

  it('sends mail in clear to another machine only when PORTICO_SMTP_ALLOW_PLAINTEXT is 1', () => {
    const mail = { PORTICO_SMTP_URL: 'smtp://mail.lender.example', PORTICO_MAIL_TO: 'a@lender.example', PORTICO_MAIL_FROM: 'b@lender.example' };
    expect(contactSettings({ ...mail, PORTICO_SMTP_ALLOW_PLAINTEXT: '1' }, where).mail?.allowPlaintext).toBe(true);
    expect(contactSettings({ ...mail, PORTICO_SMTP_ALLOW_PLAINTEXT: '0' }, where).mail?.allowPlaintext).toBe(false);
    expect(() => contactSettings({ ...mail, PORTICO_SMTP_ALLOW_PLAINTEXT: 'yes' }, where)).toThrow('PORTICO_SMTP_ALLOW_PLAINTEXT must be 1 or 0, not "yes"');
  });

  it.each([
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ PORTICO_CONTACT_RATE_LIMIT: 'lots' }, 'PORTICO_CONTACT_RATE_LIMIT must be a whole number'],
    [{ PORTICO_WEBHOOK_URL: 'https://hooks.example' }, 'PORTICO_WEBHOOK_URL needs PORTICO_WEBHOOK_SECRET'],
    [{ PORTICO_WEBHOOK_URL: 'file:///etc/passwd', PORTICO_WEBHOOK_SECRET: 'x' }, 'PORTICO_WEBHOOK_URL must be an http(s) URL'],
    [{ PORTICO_SMTP_URL: 'smtp://mail.example' }, 'PORTICO_SMTP_URL needs PORTICO_MAIL_TO and PORTICO_MAIL_FROM'],
  ])('names the variable at fault in %j', (env, message) => {
    expect(() => contactSettings(env, where)).toThrow(message);
  });
});

describe('contact.retentionDays from config.json', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'portico-retention-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const configWith = (config: unknown) => {
    const file = path.join(folder, `config-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(config));
    return file;
  };

  it('is 180 days unless the config says otherwise', async () => {
    expect(await retentionDays(undefined)).toEqual({ days: 180 });
    expect(await retentionDays(configWith({ comName: 'Portico' }))).toEqual({ days: 180 });
    expect(await retentionDays(configWith({ contact: { retentionDays: 30 } }))).toEqual({ days: 30 });
  });

  it.each([[0], [1.5], ['90'], [10000]])('names a bad value (%j) and keeps the default', async (value) => {
    expect(await retentionDays(configWith({ contact: { retentionDays: value } }))).toEqual({
      days: 180,
      problem: expect.stringMatching(/^contact\.retentionDays (must be a whole number from 1 to 3650|expected number, got string); using 180 days$/),
    });
  });

  it('keeps the default when the file cannot be read, and says why', async () => {
    expect(await retentionDays(path.join(folder, 'missing.json'))).toEqual({ days: 180, problem: expect.stringContaining('cannot read') });
    expect(await retentionDays(configWith({ contact: [] }))).toEqual({ days: 180, problem: expect.stringContaining('contact must be an object') });
  });
});
