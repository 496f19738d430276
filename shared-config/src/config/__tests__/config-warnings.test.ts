import { sampleConfig } from '@portico/testing/sample-config';
import { configWarnings } from '../config-warnings';

test('a config with complete disclosures needs no warning', () => {
  expect(configWarnings(sampleConfig)).toEqual([]);
});

test('a config without legal warns that About Us lacks the disclosures', () => {
  const { legal: _removed, ...rest } = sampleConfig;
  expect(configWarnings(rest)).toEqual([expect.stringContaining('no `legal` object')]);
});

test('a legal object without licence number or grievance officer names what is missing', () => {
  const { licenceNumber: _licence, grievanceOfficer: _officer, ...legal } = sampleConfig.legal!;
  expect(configWarnings({ ...sampleConfig, legal })).toEqual([
    "About Us shows the lender's disclosures without legal.licenceNumber and legal.grievanceOfficer.",
  ]);
});
