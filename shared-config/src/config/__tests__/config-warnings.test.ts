import { sampleConfig } from '@portico/testing/sample-config';
import { configWarnings } from '../config-warnings';
import { parseConfig } from '../parse-config';

const warningsOf = (raw: unknown) => configWarnings(parseConfig(raw));

test('the sample config, a complete lender per market and the Indonesian copyright, needs no warning', () => {
  expect(warningsOf(sampleConfig)).toEqual([]);
});

test('each market without a block is named with the page that shows no lender', () => {
  const { legal: _removed, ...rest } = sampleConfig;
  expect(warningsOf(rest)).toEqual([
    { field: 'legal.IN', message: expect.stringContaining('is missing: the India page (?type=1) shows no lender') },
    { field: 'legal.ID', message: expect.stringContaining('is missing: the Indonesia page (?type=2) shows no lender') },
  ]);
  expect(warningsOf({ ...sampleConfig, legal: { IN: sampleConfig.legal!.IN } }).map(({ field }) => field)).toEqual(['legal.ID']);
});

test('a block without licence number or grievance officer names what is missing', () => {
  const { licenceNumber: _licence, grievanceOfficer: _officer, ...indonesia } = sampleConfig.legal!.ID!;
  expect(warningsOf({ ...sampleConfig, legal: { ...sampleConfig.legal, ID: indonesia } })).toEqual([
    { field: 'legal.ID', message: 'has no licenceNumber and grievanceOfficer: the Indonesia page (?type=2) shows its lender without them' },
  ]);
});

test('without an Indonesian copyright line, the line as written is named', () => {
  const { copyrightByLanguage: _removed, ...rest } = sampleConfig;
  expect(warningsOf(rest)).toEqual([
    { field: 'copyrightByLanguage.id', message: `is missing: the Indonesian page shows the copyright line as written, "${sampleConfig.copyright}"` },
  ]);
});

test('the old single legal object is a warning saying how to move it, and the other market is named as missing', () => {
  expect(warningsOf({ ...sampleConfig, legal: { market: 'IN', ...sampleConfig.legal!.IN } }).map(({ field }) => field)).toEqual(['legal', 'legal.ID']);
});

test('once a market has company details of its own, each market that still shows a top-level value is named with what it shows', () => {
  const byMarket = { ID: { email: 'dukungan@portico.example', address: 'Jl. Jenderal Sudirman Kav. 1, Jakarta' } };
  expect(warningsOf({ ...sampleConfig, byMarket })).toEqual([
    { field: 'byMarket.IN', message: 'has no comName, email, address and copyright of its own: the India page (?type=1) shows the top-level values' },
    // Indonesia's copyright line is copyrightByLanguage.id's: not a fallback.
    { field: 'byMarket.ID', message: 'has no comName of its own: the Indonesia page (?type=2) shows the top-level value' },
  ]);
  // A file that never uses byMarket shows the top-level values on both pages, as it always did: nothing to say.
  expect(warningsOf(sampleConfig)).toEqual([]);
});
