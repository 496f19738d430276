import type { SiteConfig } from './config-schema';

/**
 * What a valid config.json still lacks that visitors are owed. Unlike a
 * problem it breaks nothing, so it goes to the console for the operator and
 * never onto the page.
 */
export function configWarnings(config: SiteConfig): string[] {
  const { legal } = config;
  if (!legal) {
    return [
      'config.json has no `legal` object, so About Us shows none of the disclosures a regulated lender must publish (legal name, registration and licence numbers, grievance officer). See the README.',
    ];
  }
  const missing = [
    !legal.licenceNumber && 'legal.licenceNumber',
    !(legal.grievanceOfficer?.name && legal.grievanceOfficer.email) && 'legal.grievanceOfficer',
  ].filter((field) => typeof field === 'string');
  return missing.length > 0 ? [`About Us shows the lender's disclosures without ${missing.join(' and ')}.`] : [];
}

/**
 * Tells the operator, in the console, what config.json has wrong (one error,
 * a line per problem) and what a valid one still lacks (a warning each). The
 * client-rendered page's start-up and the server-rendered page's script
 * (from the server's reading) say it alike.
 */
export function reportConfigToConsole(problems: readonly { field: string; message: string }[], warnings: readonly string[]): void {
  if (problems.length > 0) console.error(`Portico: config.json has ${problems.length} problem(s):\n${problems.map((p) => `- ${p.field}: ${p.message}`).join('\n')}`);
  for (const warning of warnings) console.warn(`Portico: ${warning}`);
}
