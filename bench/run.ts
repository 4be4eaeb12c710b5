/**
 * `npm run bench`: runs the benchmark scenarios of issue 9 one after another, prints one
 * table, and writes bench/results.json (every raw number, plus the machine). Not part of
 * `npm test`: it takes minutes and its numbers depend on the machine.
 *
 *   npm run bench                 every scenario (B1 to B7, and B2D when Docker engines are given)
 *   npm run bench -- B1 B3        some of them
 *
 * Environment: BENCH_DURATION (seconds per measured load run, default 5), BENCH_WARMUP
 * (seconds, default 1), BENCH_LOG_LEVEL (the service's LOG_LEVEL, default warn),
 * BENCH_RESULTS (the file to write instead of bench/results.json, e.g. for a subset's figures),
 * BENCH_CPU_PROFILE (a directory: the service runs with --cpu-prof and writes its profiles
 * there), BENCH_TIME_LIMIT (seconds for the whole run, default 1800: B7 fills PostgreSQL with 10,000 sessions), SESSION_HOST_DOCKER_ENGINES
 * (B2D: the engines test/docker/start-engines.sh prints; without it B2D reports itself skipped).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { killEverything } from './processes.js';
import { formatTable, type BenchOptions, type Row, type ScenarioResult } from './report.js';
import { b1 } from './scenarios/b1-control-plane.js';
import { b2docker } from './scenarios/b2-docker.js';
import { b2 } from './scenarios/b2-start-to-running.js';
import { b3 } from './scenarios/b3-scale.js';
import { b4 } from './scenarios/b4-contention.js';
import { b5 } from './scenarios/b5-observability.js';
import { b6 } from './scenarios/b6-warm.js';
import { b3index } from './scenarios/b3-index.js';
import { b7 } from './scenarios/b7-instances.js';
import { projectRoot, serviceRoot } from './service.js';

const scenarios: Record<string, { title: string; run: (options: BenchOptions) => Promise<ScenarioResult> }> = {
  B1: { title: 'control-plane calls vs bare Fastify and Prism', run: b1 },
  B2: { title: 'start-to-running on the process runtime vs spawning directly', run: b2 },
  B2D: { title: 'start-to-running on the Docker runtime vs starting the container directly', run: b2docker },
  B3: { title: 'scale: 1,000 and 10,000 live simulated sessions', run: b3 },
  B3I: { title: 'the live read model\'s label index alone, in process', run: b3index },
  B4: { title: 'contention: 500 concurrent starts into 100 slots', run: b4 },
  B5: { title: 'observability: metrics and OTLP traces on vs off', run: b5 },
  B6: { title: 'warm starts from warm pools (issue 19)', run: b6 },
  B7: { title: 'SQLite, PostgreSQL with 1 and 3 instances (HAProxy); limit=100 at 10k live on PostgreSQL', run: b7 },
};

const options: BenchOptions = {
  durationSeconds: Number(process.env.BENCH_DURATION ?? 5),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 1),
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  cpuProfileDir: process.env.BENCH_CPU_PROFILE ? resolve(process.env.BENCH_CPU_PROFILE) : undefined,
};
const timeLimitSeconds = Number(process.env.BENCH_TIME_LIMIT ?? 1800);

const selected = process.argv.slice(2).map((name) => name.toUpperCase());
for (const name of selected) {
  if (!scenarios[name]) {
    console.error(`unknown scenario ${name}; choose from ${Object.keys(scenarios).join(', ')}`);
    process.exit(2);
  }
}
const names = selected.length > 0 ? selected : Object.keys(scenarios);

// Whatever happens, no server, load worker, supervisor or game server outlives the run.
process.on('exit', killEverything);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
setTimeout(() => {
  console.error(`\nbench: time limit of ${timeLimitSeconds} s reached; stopping everything`);
  process.exit(1);
}, timeLimitSeconds * 1000).unref();

function machine() {
  const gitCommit = (() => {
    try {
      return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: projectRoot, encoding: 'utf8' }).trim();
    } catch {
      return null;
    }
  })();
  const onPath = (tool: string) => (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, tool)));
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
    platform: `${process.platform} ${release()}`,
    bubblewrap: onPath('bwrap'),
    gitCommit,
  };
}

const started = Date.now();
const rows: Row[] = [];
const raw: Record<string, unknown> = {};
const failures: Record<string, string> = {};
/** The machine is shared: a high load average before a scenario flags its numbers as noisy. */
const loadBefore: Record<string, number> = {};
const seconds: Record<string, number> = {};
for (const name of names) {
  const scenario = scenarios[name]!;
  const t0 = Date.now();
  loadBefore[name] = Math.round(loadavg()[0]! * 100) / 100;
  process.stdout.write(`${name}: ${scenario.title} ... `);
  try {
    const result = await scenario.run(options);
    rows.push(...result.rows);
    raw[name] = result.raw;
    seconds[name] = (Date.now() - t0) / 1000;
    process.stdout.write(`${seconds[name].toFixed(0)} s (load average before: ${loadBefore[name]})\n`);
  } catch (error) {
    failures[name] = String((error as Error).stack ?? error);
    process.stdout.write(`FAILED\n${failures[name]}\n`);
  }
}

const info = machine();
console.log(
  `\nSession host benchmarks: ${info.cpus} × ${info.cpuModel}, Node ${info.node}, ` +
    `${options.durationSeconds} s per load run after ${options.warmupSeconds} s warm-up, service LOG_LEVEL=${options.logLevel}\n`,
);
console.log(formatTable(rows));
const missed = rows.filter((r) => r.met === false);
console.log(
  `\n${rows.filter((r) => r.met === true).length} targets met, ${missed.length} missed` +
    (missed.length ? `: ${missed.map((r) => `${r.scenario} (${r.metric})`).join('; ')}` : '') +
    (Object.keys(failures).length ? `; scenarios failed: ${Object.keys(failures).join(', ')}` : ''),
);

const resultsFile = process.env.BENCH_RESULTS ? resolve(process.env.BENCH_RESULTS) : join(import.meta.dirname, 'results.json');
writeFileSync(
  resultsFile,
  JSON.stringify(
    {
      date: new Date(started).toISOString(),
      durationSeconds: (Date.now() - started) / 1000,
      machine: info,
      serviceRoot,
      options,
      scenarios: names,
      scenarioSeconds: seconds,
      loadAverageBefore: loadBefore,
      table: rows,
      raw,
      failures,
    },
    null,
    2,
  ) + '\n',
);
console.log(`raw numbers: ${resultsFile}`);
process.exit(Object.keys(failures).length > 0 ? 1 : 0);
