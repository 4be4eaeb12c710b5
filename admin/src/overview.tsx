/**
 * Overview: the last hour of live sessions per location and state, start-to-running
 * percentiles, and starts and 420s per minute, charted with uPlot from the samples of the same
 * registry /metrics reads (GET /admin/api/overview). Refreshed every sampling interval.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { api, describeError, type Overview } from './api';
import { ErrorMessage } from './components';
import './overview.css';

type Sample = Overview['samples'][number];
interface Series {
  label: string;
  values: (number | null)[];
}

const COLORS = ['#1f5fbf', '#1a7f37', '#b42318', '#8250df', '#bf8700', '#0a7ea4', '#cf222e', '#57606a'];
const CHART_HEIGHT = 220;

/** One uPlot chart over the samples' times; rebuilt when its series change, resized with its box. */
function Chart({ title, unit, times, series }: { title: string; unit: string; times: number[]; series: Series[] }) {
  const box = useRef<HTMLDivElement>(null);
  const labels = series.map((s) => s.label).join('\n');
  const plot = useRef<uPlot>();
  useEffect(() => {
    const element = box.current!;
    plot.current = new uPlot(
      {
        width: element.clientWidth,
        height: CHART_HEIGHT,
        // Points too: a percentile of one interval among empty ones is a point, not a line.
        series: [{}, ...series.map((s, i) => {
          const color = COLORS[i % COLORS.length];
          return { label: s.label, stroke: color, width: 2, points: { show: true, size: 7, fill: color } };
        })],
        axes: [{}, { label: unit, size: 60 }],
        legend: { live: false },
      },
      [times, ...series.map((s) => s.values)],
      element,
    );
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: element.clientWidth, height: CHART_HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.current?.destroy();
    };
  }, [labels]);
  useEffect(() => plot.current?.setData([times, ...series.map((s) => s.values)]), [times, series]);
  return (
    <section class="card chart" aria-label={title} data-series={series.length} data-points={times.length}>
      <h2>{title}</h2>
      {series.length === 0 ? <p class="muted">Nothing yet.</p> : null}
      <div ref={box} />
    </section>
  );
}

function sessionSeries(samples: Sample[]): Series[] {
  const keys = [...new Set(samples.flatMap((s) => s.sessions.map((c) => `${c.location} ${c.state}`)))].sort();
  return keys.map((label) => ({
    label,
    values: samples.map((s) => s.sessions.find((c) => `${c.location} ${c.state}` === label)?.count ?? 0),
  }));
}

function startSeries(samples: Sample[]): Series[] {
  const ms = (pick: (p: NonNullable<Sample['startToRunning']>) => number) =>
    samples.map((s) => (s.startToRunning ? Math.round(pick(s.startToRunning) * 1000) : null));
  return [
    { label: 'p50', values: ms((p) => p.p50) },
    { label: 'p95', values: ms((p) => p.p95) },
    { label: 'p99', values: ms((p) => p.p99) },
  ];
}

function rateSeries(samples: Sample[], intervalSeconds: number): Series[] {
  const perMinute = (count: number) => (count * 60) / intervalSeconds;
  return [
    { label: 'starts', values: samples.map((s) => perMinute(s.starts)) },
    { label: '420 answers', values: samples.map((s) => perMinute(s.capacityUnavailable)) },
  ];
}

export function OverviewPage() {
  const [overview, setOverview] = useState<Overview>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const load = async () => {
      const { data, error } = await api.GET('/admin/api/overview');
      setError(error ? describeError(error) : undefined);
      if (data) setOverview(data);
      timer = setTimeout(load, Math.max(2, data?.intervalSeconds ?? 10) * 1000);
    };
    void load();
    return () => clearTimeout(timer);
  }, []);
  if (!overview) return <ErrorMessage error={error} />;
  const { samples, intervalSeconds } = overview;
  const times = samples.map((s) => s.at / 1000);
  const last = samples.at(-1);
  const live = last ? last.sessions.reduce((sum, c) => sum + c.count, 0) : 0;
  return (
    <>
      <h1>Overview</h1>
      <ErrorMessage error={error} />
      <p class="muted">
        The last hour, one sample every {intervalSeconds} s ({samples.length} so far) · {live} live sessions now · the same numbers as{' '}
        <code>/metrics</code>
      </p>
      <div class="charts">
        <Chart title="Live sessions per location and state" unit="sessions" times={times} series={sessionSeries(samples)} />
        <Chart title="Start to running" unit="ms" times={times} series={startSeries(samples)} />
        <Chart title="Starts and 420 answers per minute" unit="per minute" times={times} series={rateSeries(samples, intervalSeconds)} />
      </div>
    </>
  );
}
