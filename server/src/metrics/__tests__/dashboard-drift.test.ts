import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Histogram } from 'prom-client';
import { ServerMetrics } from '../server-metrics';

// The operator's dashboard and alert rules (docs/) name metrics by their
// text; a metric renamed in the code without them would leave a panel empty
// and an alert silent. Checked to fail: a panel naming
// portico_page_cache_hits_total (a name the server does not expose) is
// reported here.

const DOCS = path.resolve(__dirname, '../../../../docs');
/** Series Prometheus itself makes for each target, not the server. */
const PROMETHEUS_OWN = new Set(['up']);
/** A histogram's series carry its name with these endings. */
const HISTOGRAM_SERIES = /_(?:bucket|sum|count)$/;

/** The names the server's registry exposes (a histogram's series included). */
function exposedNames(): Set<string> {
  const names = new Set<string>();
  for (const metric of new ServerMetrics().registry.getMetricsAsArray()) {
    names.add(metric.name);
    if (metric instanceof Histogram) for (const ending of ['bucket', 'sum', 'count']) names.add(`${metric.name}_${ending}`);
  }
  return names;
}

/** Every metric name an expression reads: an identifier followed by `{`, `[`, `)` or a space, never a label, function or keyword. */
function metricsIn(expression: string): string[] {
  const withoutStrings = expression.replace(/"[^"]*"/g, '""');
  const names = [...withoutStrings.matchAll(/\b([a-z_][a-z0-9_]*)\b(?!\s*\()/g)].map((match) => match[1]!);
  return names.filter((name) => /^(?:portico|process|nodejs)_/.test(name) || PROMETHEUS_OWN.has(name));
}

function unknownIn(expressions: readonly string[]): string[] {
  const exposed = exposedNames();
  return expressions.flatMap(metricsIn).filter((name) => !exposed.has(name) && !PROMETHEUS_OWN.has(name));
}

interface Panel {
  title: string;
  type: string;
  datasource?: { uid: string };
  targets?: { expr: string; datasource?: { uid: string } }[];
}

test('the Grafana dashboard imports onto any Prometheus and every query names a metric the server exposes', () => {
  const dashboard = JSON.parse(readFileSync(path.join(DOCS, 'grafana-dashboard.json'), 'utf8')) as {
    __inputs: { name: string; pluginId: string }[];
    panels: Panel[];
  };
  expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', pluginId: 'prometheus' })]);
  const queried = dashboard.panels.filter((panel) => panel.type !== 'row');
  expect(queried.length).toBeGreaterThan(10);
  const expressions = queried.flatMap((panel) => {
    expect({ panel: panel.title, uid: panel.datasource?.uid }).toEqual({ panel: panel.title, uid: '${DS_PROMETHEUS}' });
    return (panel.targets ?? []).map((target) => target.expr);
  });
  expect(unknownIn(expressions)).toEqual([]);
  // Every metric of Portico's own is on the dashboard somewhere.
  const shown = new Set(expressions.flatMap(metricsIn).map((name) => name.replace(HISTOGRAM_SERIES, '')));
  const own = [...exposedNames()].filter((name) => name.startsWith('portico_') && !HISTOGRAM_SERIES.test(name));
  expect(own.filter((name) => !shown.has(name))).toEqual([]);
});

test('every alert rule reads metrics the server exposes, and the issue’s three alerts are there', () => {
  const rules = readFileSync(path.join(DOCS, 'prometheus-alerts.yml'), 'utf8');
  const expressions = [...rules.matchAll(/^\s*expr:\s*(.+)$/gm)].map((match) => match[1]!);
  const alerts = [...rules.matchAll(/^\s*- alert:\s*(\S+)$/gm)].map((match) => match[1]!);
  expect(expressions).toHaveLength(alerts.length);
  expect(unknownIn(expressions)).toEqual([]);
  const joined = expressions.join('\n');
  // A canary rolled back, an outbox older than N minutes, render workers restarting.
  expect(joined).toContain('portico_release_actions_total{action="auto-rollback"}');
  expect(joined).toContain('portico_contact_outbox_oldest_seconds');
  expect(joined).toContain('portico_render_worker_restarts_total');
});

test('the metric list in docs/metrics.md is the registry’s', () => {
  const documented = new Set([...readFileSync(path.join(DOCS, 'metrics.md'), 'utf8').matchAll(/^\| `(portico_[a-z_]+)` \|/gm)].map((match) => match[1]!));
  const own = [...exposedNames()].filter((name) => name.startsWith('portico_') && !HISTOGRAM_SERIES.test(name));
  expect([...documented].sort()).toEqual(own.sort());
});
