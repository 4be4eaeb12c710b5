/**
 * CPU time per start+stop pair in process (issue 19's pairs row): the real service on the
 * simulated runtime, driven by Fastify's inject (no sockets: the HTTP parsing and the socket
 * writes are not counted, the rest is), 10 pairs at a time like B1, after 100 live sessions.
 * Prints the process's CPU (user + system, process.cpuUsage) per pair for each of ROUNDS runs of
 * PAIRS pairs, and the statements run per pair; SQL_TRACE=1 adds each statement's count and time
 * per pair. Sessions exit 800 ms after their stop, as B1's do (the live set grows with the rate).
 * `npm run bench:cpu-pairs`.
 */
import Database from 'better-sqlite3';
import { fleet, LOCATION } from './fleets.js';
import { startService, TEST_BOOTSTRAP_TOKEN } from '../test/support/service.js';

const PAIRS = Number(process.env.PAIRS ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 10);

// Counts statements by wrapping better-sqlite3's statement methods (only here, never in the service).
let statements = 0;
let commits = 0;
const counted = new Map<string, [number, number]>();
const sample = new Database(':memory:').prepare('SELECT 1');
const statementProto = Object.getPrototypeOf(sample) as Record<string, (...args: unknown[]) => unknown>;
for (const method of ['run', 'get', 'all', 'iterate'] as const) {
  const original = statementProto[method]!;
  statementProto[method] = function (this: { source: string }, ...args: unknown[]) {
    statements++;
    if (this.source === 'COMMIT') commits++;
    if (!process.env.SQL_TRACE) return original.apply(this, args);
    const t0 = process.hrtime.bigint();
    try { return original.apply(this, args); } finally {
      const key = this.source.replace(/\s+/g, ' ').slice(0, 90);
      const entry = counted.get(key) ?? [0, 0];
      entry[0]++; entry[1] += Number(process.hrtime.bigint() - t0);
      counted.set(key, entry);
    }
  };
}

const service = await startService(
  { logLevel: 'warn', simulated: { readyMs: 1500, stopMs: 800 }, startRate: { perSecond: 1e6, burst: 1e6, burstWindowSeconds: 1 } },
  { fleet: fleet({ driver: 'simulated', capacity: 3000, ports: { from: 10_000, to: 59_999 } }) },
);
const { app } = service.service;
const headers = { authorization: `Bearer ${TEST_BOOTSTRAP_TOKEN}`, 'content-type': 'application/json' };
let n = 0;
const body = (id: string) => JSON.stringify({ id, location: LOCATION, image: 'echo', labels: { mode: `m${n % 2}`, shard: `s${n % 100}` } });

async function start(id: string): Promise<void> {
  const response = await app.inject({ method: 'POST', url: '/session', headers, payload: body(id) });
  if (response.statusCode !== 201) throw new Error(`POST ${response.statusCode}: ${response.body}`);
}
async function pairs(count: number, prefix: string): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) {
        const id = `${prefix}-${++n}`;
        await start(id);
        const stopped = await app.inject({ method: 'DELETE', url: `/session/${id}`, headers });
        if (stopped.statusCode !== 204) throw new Error(`DELETE ${stopped.statusCode}: ${stopped.body}`);
      }
    }),
  );
}

for (let i = 0; i < 100; i++) await start(`live-${i}`);
await pairs(500, 'warmup');
const results: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  counted.clear();
  const before = process.cpuUsage();
  const statementsBefore = statements;
  const commitsBefore = commits;
  const wall = performance.now();
  await pairs(PAIRS, `r${round}`);
  const used = process.cpuUsage(before);
  const perPair = (used.user + used.system) / PAIRS;
  results.push(perPair);
  console.log(
    `round ${round + 1}: ${Math.round(perPair)} µs CPU per pair (user ${Math.round(used.user / PAIRS)}, system ${Math.round(used.system / PAIRS)}), ` +
      `${((statements - statementsBefore) / PAIRS).toFixed(1)} statements per pair, ${((commits - commitsBefore) / PAIRS).toFixed(2)} commits per pair, ${Math.round(PAIRS / ((performance.now() - wall) / 1000))} pairs/s`,
  );
}
if (process.env.SQL_TRACE) for (const [sql, [count, ns]] of [...counted].sort((a, b) => b[1][1] - a[1][1])) console.log(`${(count / PAIRS).toFixed(2)}/pair ${(ns / 1000 / PAIRS).toFixed(1).padStart(6)} µs/pair ${(ns / 1000 / count).toFixed(1).padStart(6)} µs each  ${sql}`);
console.log(`least: ${Math.round(Math.min(...results))} µs CPU per pair`);
await service.close();
process.exit(0);
