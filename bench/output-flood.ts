/**
 * What a game server flooding its stdout (`yes`) costs outside its session: its supervisor's CPU
 * (utime + stime, in ticks of 10 ms) and the bytes it writes to output.log per second, against the
 * CPU of the session's own processes (its cgroup), over SECONDS after a second's warm-up. The real
 * service, process runtime, sandboxed (root). `npm run bench:output-flood`; LIMIT=<MiB/s> sets the
 * image's `outputMbPerSecond`; COMMAND another shell command (`exec sleep 600`: what a session
 * costs its supervisor without output, its readiness polls: it never binds its ports).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startService, testFleet, TEST_BOOTSTRAP_TOKEN } from '../test/support/service.js';
import { runtimeDir } from '../test/support/sessions.js';

const SECONDS = Number(process.env.SECONDS ?? 10);
const TICKS_PER_SECOND = 100;

const fleet = testFleet((fleet) => {
  const echo = fleet.images.find((image) => image.name === 'echo')!;
  fleet.images.push({
    name: 'flood',
    defaultTag: 'latest',
    public: true,
    limits: { startSeconds: 600, ...(process.env.LIMIT ? { outputMbPerSecond: Number(process.env.LIMIT) } : {}) },
    tags: { latest: { command: ['/bin/sh', '-c', process.env.COMMAND ?? `exec yes ${'A'.repeat(70)}`], ports: echo.tags[echo.defaultTag]!.ports } },
  });
});
const service = await startService({ logLevel: 'warn' }, { fleet });
const headers = { authorization: `Bearer ${TEST_BOOTSTRAP_TOKEN}`, 'content-type': 'application/json' };
try {
  const started = await fetch(`${service.url}/session`, { method: 'POST', headers, body: JSON.stringify({ id: 'flood', location: 'local-a', image: 'flood' }) });
  if (started.status !== 201) throw new Error(`POST /session ${started.status}: ${await started.text()}`);
  const dir = await runtimeDir(service, 'flood');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
  const memory = /:memory:(.*)$/m.exec(readFileSync(`/proc/${state.gamePid}/cgroup`, 'utf8'))![1]!;
  const sessionPids = () => readFileSync(join('/sys/fs/cgroup/memory', memory, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  const ticks = (pid: number) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return 0;
    }
  };
  const written = () => Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${state.supervisorPid}/io`, 'utf8'))![1]);
  const sample = () => ({ supervisor: ticks(state.supervisorPid), session: sessionPids().reduce((sum, pid) => sum + ticks(pid), 0), written: written(), at: performance.now() });
  const before = sample();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const after = sample();
  const seconds = (after.at - before.at) / 1000;
  console.log(
    JSON.stringify({
      limitMbPerSecond: process.env.LIMIT ?? 'default',
      seconds: Number(seconds.toFixed(1)),
      supervisorTicks: after.supervisor - before.supervisor,
      supervisorCpuShare: Number(((after.supervisor - before.supervisor) / TICKS_PER_SECOND / seconds).toFixed(3)),
      sessionTicks: after.session - before.session,
      writtenMiBPerSecond: Number(((after.written - before.written) / 1024 / 1024 / seconds).toFixed(2)),
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ', 1)[0],
    }),
  );
} finally {
  await service.close();
}
