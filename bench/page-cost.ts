/**
 * What a page of the session list costs the service (issue 19's selective-filter row):
 * `npm run bench:page-cost`. B3's selective filter answers 10 sessions at 1,000 live and 100 at
 * 10,000, and its p99 ratio is that of a 100-session page against a 10-session one; this tool
 * puts the two pages side by side in one service (PAGE_COST_SESSIONS live, default 1,000; the
 * 10-session page is B3's selective query, the 100-session page `limit=100`), loads each with one
 * connection as B3 does, in turns (BENCH_ROUNDS, default 3, of BENCH_DURATION seconds, default
 * 3), and prints per request: the service's CPU time (/proc), the bytes V8 allocated (the sum of
 * `allocated=` in `--trace-gc-nvp`'s lines), its scavenges and their pauses, and the latency.
 * With PAGE_COST_BEFORE naming another checkout (e.g. an exported commit with node_modules), that
 * checkout's service is measured too, in turns with this one's, so a change is measured against
 * what it changed under the same load. Allocation and CPU per request depend far less on the
 * neighbours' load than a p99 does.
 */
import { fleet } from './fleets.js';
import { runLoad } from './load.js';
import { cpuSeconds } from './proc-cpu.js';
import { serviceRoot, startOurService } from './service.js';
import { fillSessions } from './setup.js';
import { ms } from './stats.js';

const sessions = Number(process.env.PAGE_COST_SESSIONS ?? 1000);
const durationSeconds = Number(process.env.BENCH_DURATION ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGES = { '10-session page': '/session?limit=100&filter[shard]=s7', '100-session page': '/session?limit=100' } as const;
type Page = keyof typeof PAGES;

/** V8's garbage collections as --trace-gc-nvp reports them, summed. */
type GcTotals = { allocated: number; scavenges: number; scavengeMs: number; full: number };

function gcReader(gc: GcTotals): (text: string) => void {
  let partial = '';
  return (text) => {
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
  };
}

/** This checkout, and another to compare with (PAGE_COST_BEFORE, e.g. an exported commit), measured in turns. */
const checkouts = [{ name: 'this checkout', root: serviceRoot }, ...(process.env.PAGE_COST_BEFORE ? [{ name: 'before', root: process.env.PAGE_COST_BEFORE }] : [])];
const services = [];
for (const checkout of checkouts) {
  const gc: GcTotals = { allocated: 0, scavenges: 0, scavengeMs: 0, full: 0 };
  const service = await startOurService({
    runtime: 'simulated',
    fleet: fleet({ driver: 'simulated', capacity: 20_000, ports: { from: 10_000, to: 59_999 } }),
    logLevel: 'warn',
    checkout,
    nodeArgs: ['--trace-gc-nvp'],
    output: gcReader(gc),
  });
  services.push({ checkout, service, gc });
}
try {
  const totals = new Map<string, { ok: number; cpu: number; allocated: number; scavenges: number; scavengeMs: number; full: number; p50: number[]; p99: number[] }>();
  for (const { checkout, service } of services) {
    await fillSessions(service, sessions, 'page-cost');
    for (const [page, path] of Object.entries(PAGES)) {
      await runLoad({ url: service.url, token: service.token, connections: 1, durationSeconds: 1, requests: [{ method: 'GET', path }] });
      totals.set(`${checkout.name}, ${page}`, { ok: 0, cpu: 0, allocated: 0, scavenges: 0, scavengeMs: 0, full: 0, p50: [], p99: [] });
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (const [page, path] of Object.entries(PAGES) as [Page, string][]) {
      for (const { checkout, service, gc } of services) {
        const before = { cpu: cpuSeconds(service.pid), ...gc };
        const load = await runLoad({ url: service.url, token: service.token, connections: 1, durationSeconds, requests: [{ method: 'GET', path }] });
        const total = totals.get(`${checkout.name}, ${page}`)!;
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
  }
  for (const [name, t] of totals) {
    const per1000 = (n: number) => ((n * 1000) / t.ok).toFixed(1);
    console.log(
      `${name} (${sessions} live): ${((t.cpu / t.ok) * 1e6).toFixed(0)} µs CPU/request, ${(t.allocated / t.ok / 1024).toFixed(1)} KiB allocated/request, ` +
        `${per1000(t.scavenges)} scavenges (${(t.scavengeMs / Math.max(1, t.scavenges)).toFixed(2)} ms each) and ${per1000(t.full)} full GCs per 1,000; ` +
        `p50 ${t.p50.map(ms).join(' ')}, p99 ${t.p99.map(ms).join(' ')} (${t.ok} requests in ${rounds} rounds)`,
    );
  }
} finally {
  for (const { service } of services) await service.stop();
}
process.exit(0);
