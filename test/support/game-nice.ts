/**
 * Run by test/unit/spare-nice.test.ts (as a user who may not raise priorities): an unsandboxed
 * process runtime in `argv[2]` starts a game server listening on `argv[3]` from its first spare,
 * and prints `{ service, game }`, the niceness of this process and of the game server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProcessRuntime } from '../../server/runtime/process/process-runtime.js';
import { eventually } from './eventually.mjs';
import { listenerLaunch } from './launch-specs.js';

const [sessionsDir, port] = [process.argv[2]!, Number(process.argv[3])];
/** Niceness (field 19 of /proc/<pid>/stat). */
const niceOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
// The runtime's children are unref'd (a service's server keeps it alive): this does, until the end.
const alive = setInterval(() => {}, 1000);
const runtime = new ProcessRuntime({ sessionsDir, graceMs: 1000, retentionMs: 3_600_000, sandboxes: undefined, now: Date.now, instanceId: 'i1' });
await runtime.start(listenerLaunch('s1', port));
const state = () => JSON.parse(readFileSync(join(sessionsDir, 's1', 'state.json'), 'utf8')) as { phase: string; gamePid: number };
await eventually(() => {
  try {
    return state().phase === 'running';
  } catch {
    return false;
  }
}, { timeoutMs: 30_000, what: 'running' });
console.log(JSON.stringify({ service: niceOf(process.pid), game: niceOf(state().gamePid) }));
await runtime.stop('s1');
await eventually(() => state().phase === 'ended', { timeoutMs: 30_000, what: 'the end' });
await runtime.close();
clearInterval(alive);
