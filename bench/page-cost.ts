/**
 * What a page of the session list costs the service (issue 19's selective-filter row):
 * `npm run bench:page-cost`. B3's selective filter answers 10 sessions at 1,000 live and 100 at
 * 10,000, and its p99 ratio is that of a 100-session page against a 10-session one; this tool
 * puts the two pages side by side in one service (PAGE_COST_SESSIONS live, default 1,000; the
 * 10-session page is B3's selective query, the 100-session page `limit=100`), loads each with one
 * connection as B3 does, in turns (BENCH_ROUNDS, default 3, of BENCH_DURATION seconds, default
 * 3), and prints per request: the service's CPU time (/proc), the bytes V8 allocated (the sum of
 * `allocated=` in `--trace-gc-nvp`'s lines), its scavenges and their pauses, and the latency.
 * Allocation and CPU per request depend far less on the neighbours' load than a p99 does.
 */
import { fleet } from './fleets.js';
import { runLoad } from './load.js';
import { cpuSeconds } from './proc-cpu.js';
import { startOurService } from './service.js';
import { fillSessions } from './setup.js';
import { ms } from './stats.js';

const sessions = Number(process.env.PAGE_COST_SESSIONS ?? 1000);
const durationSeconds = Number(process.env.BENCH_DURATION ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = { '10-session page': '/session?limit=100&filter[shard]=s7', '100-session page': '/session?limit=100' } as const;
type Page = keyof typeof PAGES;

/** V8's garbage collections as --trace-gc-nvp reports them, summed. */
const gc = { allocated: 0, scavenges: 0, scavengeMs: 0, full: 0 };
let partial = '';
function read(text: string): void {
  const lines = (partial + text).split('\n');
  partial = lines.pop()!;
  for (const line of lines) {
    const kind = / gc=(\w+)/.exec(line)?.[1];
    if (kind === undefined) continue;
    gc.allocated += Number(/ allocated=(\d+)/.exec(line)?.[1] ?? 0);
    if (kind === 's') {
      gc.scavenges++;
      gc.scavengeMs += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
    } else gc.full++;
  }
}

const service = await startOurService({
  runtime: 'simulated',
  fleet: fleet({ driver: 'simulated', capacity: 20_000, ports: { from: 10_000, to: 59_999 } }),
  logLevel: 'warn',
  nodeArgs: ['--trace-gc-nvp'],
  output: read,
});
try {
  await fillSessions(service, sessions, 'page-cost');
  const totals = Object.fromEntries(Object.keys(PAGES).map((page) => [page, { ok: 0, cpu: 0, allocated: 0, scavenges: 0, scavengeMs: 0, full: 0, p50: [] as number[], p99: [] as number[] }]));
  for (const path of Object.values(PAGES)) await runLoad({ url: service.url, token: service.token, connections: 1, durationSeconds: 1, requests: [{ method: 'GET', path }] });
  for (let round = 0; round < rounds; round++) {
    for (const [page, path] of Object.entries(PAGES) as [Page, string][]) {
      const before = { cpu: cpuSeconds(service.pid), ...gc };
      const load = await runLoad({ url: service.url, token: service.token, connections: 1, durationSeconds, requests: [{ method: 'GET', path }] });
      const total = totals[page]!;
      total.ok += load.ok;
      total.cpu += cpuSeconds(service.pid) - before.cpu;
      total.allocated += gc.allocated - before.allocated;
      total.scavenges += gc.scavenges - before.scavenges;
      total.scavengeMs += gc.scavengeMs - before.scavengeMs;
      total.full += gc.full - before.full;
      total.p50.push(load.latencyMs.p50);
      total.p99.push(load.latencyMs.p99);
    }
  }
  for (const [page, t] of Object.entries(totals)) {
    const per1000 = (n: number) => ((n * 1000) / t.ok).toFixed(1);
    console.log(
      `${page} (${sessions} live): ${((t.cpu / t.ok) * 1e6).toFixed(0)} µs CPU/request, ${(t.allocated / t.ok / 1024).toFixed(1)} KiB allocated/request, ` +
        `${per1000(t.scavenges)} scavenges (${(t.scavengeMs / Math.max(1, t.scavenges)).toFixed(2)} ms each) and ${per1000(t.full)} full GCs per 1,000; ` +
        `p50 ${t.p50.map(ms).join(' ')}, p99 ${t.p99.map(ms).join(' ')} (${t.ok} requests in ${rounds} rounds)`,
    );
  }
} finally {
  await service.stop();
}
process.exit(0);
