import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PageFigures } from './lighthouse-runs';
import { REPO_ROOT } from './paths';

// `npm run bench`'s table: its columns' figures, printed as one table of
// medians with the ratios and differences each question needs, and written
// to bench/results.json.

/** Lighthouse's medians, and what one visit to the Contact form transferred. */
export type ColumnFigures = PageFigures & {
  /** JavaScript transferred once the visitor selected Contact us and its form hydrated, in all (contact-visit.ts); null when the visit failed. */
  jsAfterContactHydratedBytes: number | null;
  /** How that visit knew the form had hydrated. */
  contactHydratedBy: string | null;
  /** The median time from a tap on "Contact us" to a working send button, under applied throttling (tap-to-ready.ts); null when it failed. */
  tapToReadyMs: number | null;
  /** Each run's time, ms. */
  tapToReadyRunsMs: number[];
};

/** The columns, in the table's order; federated SSR is null when this build has no render worker. */
export type Columns = {
  federatedSsr: ColumnFigures | null;
  /** The same page with `extraStatic` of the extra remotes added as static sections in config.json (static-extras-config.ts), rendered on the server. */
  staticExtra: ColumnFigures | null;
  /** The same page with the example calculator added and active after About (calculator-column.ts). */
  calculator: ColumnFigures | null;
  /** The same page, its releases active, with the visit report off (PORTICO_HEALTH=0): what the beacon costs. */
  beaconOff: ColumnFigures | null;
  federated: ColumnFigures;
  single: ColumnFigures;
  singleSsr: ColumnFigures;
  extra: ColumnFigures;
};

type NumericKey = { [Key in keyof ColumnFigures]-?: ColumnFigures[Key] extends number | null ? Key : never }[keyof ColumnFigures];

const ROWS: { key: NumericKey; label: string; unit: string; digits: number }[] = [
  { key: 'performance', label: 'Performance score', unit: '', digits: 0 },
  { key: 'fcpMs', label: 'First Contentful Paint', unit: 'ms', digits: 0 },
  { key: 'lcpMs', label: 'Largest Contentful Paint', unit: 'ms', digits: 0 },
  { key: 'tbtMs', label: 'Total Blocking Time', unit: 'ms', digits: 0 },
  { key: 'cls', label: 'Cumulative Layout Shift', unit: '', digits: 3 },
  { key: 'tapToReadyMs', label: 'Tap to ready, slow 4G + 4x CPU applied', unit: 'ms', digits: 0 },
  { key: 'jsBeforeLcpBytes', label: 'JS before LCP', unit: 'bytes', digits: 0 },
  { key: 'jsAfterLcpBytes', label: 'JS after LCP, before any interaction', unit: 'bytes', digits: 0 },
  { key: 'jsAfterContactHydratedBytes', label: 'JS once Contact is hydrated', unit: 'bytes', digits: 0 },
  { key: 'mainThreadMs', label: 'Main-thread work', unit: 'ms', digits: 0 },
  { key: 'scriptMs', label: 'Of which script', unit: 'ms', digits: 0 },
  { key: 'requests', label: 'Requests', unit: '', digits: 0 },
  { key: 'chainLength', label: 'Request staircase before LCP (steps)', unit: '', digits: 0 },
  { key: 'chainMs', label: 'Staircase ends at, unthrottled', unit: 'ms', digits: 0 },
  { key: 'accessibility', label: 'Accessibility score', unit: '', digits: 0 },
  { key: 'bestPractices', label: 'Best practices score', unit: '', digits: 0 },
  { key: 'seo', label: 'SEO score', unit: '', digits: 0 },
];

export function report(
  results: Columns,
  { started, runs: RUNS, extra: EXTRA, extraStatic: EXTRA_STATIC }: { started: number; runs: number; extra: number; extraStatic: number },
): void {
  const cell = (value: number | null | undefined, digits: number) => (value === undefined || value === null ? 'n/a' : value.toFixed(digits));
  const ratio = (a: number | null | undefined, b: number | null) => (a === undefined || a === null || b === null || b === 0 ? 'n/a' : (a / b).toFixed(2));
  const perExtra = (extra: number | null, fed: number | null) => (extra === null || fed === null ? null : (extra - fed) / EXTRA);
  const minus = (a: number | null | undefined, b: number | null | undefined) => (a === undefined || a === null || b === undefined || b === null ? null : a - b);
  const header = [
    'metric (median)',
    'federated SSR',
    'fed SSR, beacon off',
    'federated CSR',
    'single CSR',
    'single SSR',
    'fed SSR / single CSR',
    'fed SSR / single SSR',
    `fed SSR + ${EXTRA_STATIC} static`,
    `+${EXTRA_STATIC} static - fed SSR`,
    'fed SSR + calculator',
    '+calculator - fed SSR',
    `+${EXTRA} remotes (CSR)`,
    'per extra remote',
  ];
  const lines = ROWS.map(({ key, label, unit, digits }) => {
    const fedSsr = results.federatedSsr?.[key];
    const fed = results.federated[key];
    const extra = results.extra[key];
    return [
      unit ? `${label} (${unit})` : label,
      cell(fedSsr, digits),
      cell(results.beaconOff?.[key], digits),
      cell(fed, digits),
      cell(results.single[key], digits),
      cell(results.singleSsr[key], digits),
      ratio(fedSsr, results.single[key]),
      ratio(fedSsr, results.singleSsr[key]),
      cell(results.staticExtra?.[key], digits),
      cell(minus(results.staticExtra?.[key], fedSsr), digits),
      cell(results.calculator?.[key], digits),
      cell(minus(results.calculator?.[key], fedSsr), digits),
      cell(extra, digits),
      cell(perExtra(extra, fed), Math.max(digits, 1)),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
  const row = (cells: string[]) => `| ${cells.map((text, column) => text.padEnd(widths[column]!)).join(' | ')} |`;
  console.log(`\n${row(header)}\n${row(widths.map((width) => '-'.repeat(width)))}\n${lines.map(row).join('\n')}`);
  // Before LCP (the first paint's cost) and after it, before any interaction (what the page fetches ahead of a tap), apart.
  const added = (column: ColumnFigures | null) =>
    (['jsBeforeLcpBytes', 'jsAfterLcpBytes'] as const)
      .map((key) => minus(column?.[key], results.federatedSsr?.[key]))
      .map((bytes) => (bytes === null ? 'n/a' : `${bytes >= 0 ? '+' : ''}${bytes}`));
  const [staticBefore, staticAfter] = added(results.staticExtra);
  const staticLcp = ratio(results.staticExtra?.lcpMs, results.federatedSsr?.lcpMs ?? null);
  console.log(
    `\n${EXTRA_STATIC} static sections: ${staticBefore} B of JavaScript before LCP, ${staticAfter} B after it before any interaction, LCP ${staticLcp}x federated SSR's.`,
  );
  const [calculatorBefore, calculatorAfter] = added(results.calculator);
  console.log(
    `The calculator added and active: ${calculatorBefore} B of JavaScript before LCP, ${calculatorAfter} B after it before any interaction (its code fetched ahead), LCP ${ratio(results.calculator?.lcpMs, results.federatedSsr?.lcpMs ?? null)}x federated SSR's.`,
  );
  console.log(
    `Lighthouse ${RUNS} runs each, default mobile settings; "JS once Contact is hydrated" from one visit per column (bench/contact-visit.ts); "tap to ready" the median of ${RUNS} throttled visits per column (bench/tap-to-ready.ts); finished in ${Math.round((Date.now() - started) / 1000)} s.`,
  );
  const file = path.join(REPO_ROOT, 'bench/results.json');
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, extraRemotes: EXTRA, staticExtraSections: EXTRA_STATIC, ...results }, null, 2)}\n`,
  );
  console.log(`Figures written to ${path.relative(REPO_ROOT, file)}.`);
}
