import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { scalesOf, type ChartData } from './health-charts';

/** Line colours with 3:1 contrast on white; the threshold dashed. */
const COLOURS = ['#0b5c6b', '#b3261e', '#6b4e00', '#3a3a9e'];
const THRESHOLD = '#555555';

export interface HealthChartProps {
  chart: ChartData;
}

/** One time series chart (uPlot, canvas), named and summed up in words for assistive technology. */
export function HealthChart({ chart }: HealthChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const thresholdIndex = chart.withThreshold ? chart.labels.length - 1 : -1;
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth || 560),
        height: 200,
        title: chart.title,
        // Hours in UTC, as every time the console shows.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        scales: scalesOf(chart),
        series: [
          {},
          ...chart.labels.map((label, index) =>
            index === thresholdIndex
              ? { label, stroke: THRESHOLD, dash: [6, 4], width: 1 }
              : { label, stroke: COLOURS[index % COLOURS.length], width: 2, spanGaps: false },
          ),
        ],
        axes: [{}, { values: (_plot, ticks) => ticks.map((tick) => `${tick}${chart.unit}`), size: 60 }],
        hooks: {
          // The x axis as uPlot set it, for the browser tests: the window shown, not years around one hour.
          setScale: [
            (drawn, key) => {
              const { min, max } = drawn.scales[key]!;
              if (key !== 'x' || typeof min !== 'number' || typeof max !== 'number') return;
              element.dataset.from = new Date(min * 1000).toISOString();
              element.dataset.to = new Date(max * 1000).toISOString();
            },
          ],
        },
      },
      chart.columns as uPlot.AlignedData,
      element,
    );
    return () => plot.destroy();
  }, [chart]);
  return (
    <figure className="chart">
      <div ref={box} role="img" aria-label={chart.summary} />
    </figure>
  );
}
