/**
 * B3I, the live read model's label index alone (in this process, no HTTP): a listing with a
 * label filter matching 1% (`filter[shard]=s7`, limit 100) over 1,000 and 10,000 live
 * sessions. B3 measures the same through the API; this row isolates the index (issue 19) and
 * needs no service, so it runs where filling 10,000 sessions would not finish.
 */
import { LiveSessions } from '../../server/store/live-sessions.js';
import type { SessionRecord } from '../../server/domain/ports/sessions.js';
import type { Row, ScenarioResult } from '../report.js';
import { ratio, rounded, summarize } from '../stats.js';

const SIZES = [1_000, 10_000] as const;
const WARMUP = 2_000;
const SAMPLES = 5_000;

const record = (n: number): SessionRecord => ({
  id: `s${n}`, key: `acc/s${n}`, accountId: 'acc', image: 'echo', tag: 'latest', location: 'bench', nodeId: 'bench-1', host: '127.0.0.1', created: n,
  ports: [], status: 'running', labels: { mode: `m${n % 2}`, shard: `s${n % 100}` }, args: [], restart: false, expires: null,
  pendingEndReason: null, ended: null, exitCode: null, endReason: null, runningSince: n, players: [],
});

function measure(size: number) {
  const live = new LiveSessions([]);
  for (let n = 0; n < size; n++) live.put(record(n));
  const filter = { accountId: 'acc', all: false, labels: { shard: 's7' }, notLabels: {}, limit: 100 };
  for (let i = 0; i < WARMUP; i++) live.list(filter);
  const micros: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    live.list(filter);
    micros.push((performance.now() - t0) * 1000);
  }
  return { found: live.list(filter).length, latencyMicros: summarize(micros) };
}

export async function b3index(): Promise<ScenarioResult> {
  const [small, large] = SIZES.map(measure) as [ReturnType<typeof measure>, ReturnType<typeof measure>];
  const us = (v: number) => `${v.toFixed(1)} µs`;
  const growth = large.latencyMicros.p50 / small.latencyMicros.p50;
  const rows: Row[] = [
    {
      scenario: 'B3I read model, selective filter (1% match)',
      metric: `p50 / p99 at 10k, in process (${large.found} found; at 1k ${small.found})`,
      ours: `${us(large.latencyMicros.p50)} / ${us(large.latencyMicros.p99)}`,
      reference: `at 1k: ${us(small.latencyMicros.p50)} / ${us(small.latencyMicros.p99)}`,
      ratio: `${ratio(growth)} p50`,
      // Ten times the matches at 10k: walking them is what may grow, not the fleet's size.
      target: '≤ 10× (what it finds, not the fleet)',
      met: growth <= 10,
    },
  ];
  return { rows, raw: { sizes: SIZES, small: { ...small, latencyMicros: rounded(small.latencyMicros) }, large: { ...large, latencyMicros: rounded(large.latencyMicros) } } };
}
