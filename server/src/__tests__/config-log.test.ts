import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answerConfig } from '@portico/config-server/config-answer';
import { sampleConfig } from '@portico/testing/sample-config';
import { configReport } from '../config-log';

/** The report `GET /api/config` answers, for a file the operator wrote. */
async function reportFor(text: string) {
  const configPath = path.join(mkdtempSync(path.join(tmpdir(), 'portico-config-report-')), 'config.json');
  writeFileSync(configPath, text);
  return configReport(await answerConfig({ configPath, basePort: 8080 }));
}

test('the report names each invalid field with its reason, and which market has no lender', async () => {
  const { ID: _none, ...legal } = sampleConfig.legal!;
  const report = await reportFor(JSON.stringify({ ...sampleConfig, email: 'halo at kcn', legal: { IN: { ...legal.IN, licenceNumber: 7 } } }));
  expect(report.problems).toEqual([
    { field: 'email', message: 'is not a valid email' },
    { field: 'legal.IN.licenceNumber', message: 'expected string, got number' },
  ]);
  expect(report.warnings).toEqual([
    { field: 'legal.IN', message: expect.stringContaining('has no licenceNumber') },
    { field: 'legal.ID', message: expect.stringContaining('is missing: the Indonesia page (?type=2) shows no lender') },
  ]);
});

test('a file that cannot be served is one problem of the whole document, with the reason', async () => {
  expect(await reportFor('{ "comName": ')).toEqual({
    problems: [{ field: '(document)', message: expect.stringContaining('is not JSON') }],
    warnings: [],
  });
});

test('a valid file with both markets and the Indonesian copyright line has nothing to report', async () => {
  expect(await reportFor(JSON.stringify(sampleConfig))).toEqual({ problems: [], warnings: [] });
});
