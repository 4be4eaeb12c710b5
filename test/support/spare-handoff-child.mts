/**
 * A service's spare supervisors in a process of its own (spare-spawner.test.ts), caught between a
 * spare's handoff and its acknowledgement: its event loop is held (as a busy service's is) from
 * the spawn request until the spare runs, so the spare's pipes reach its channel and are never
 * acknowledged. Then, with `kill`, it prints the pids of its spare spawner and the spare, and
 * stays held until the test kills it (-9); with `close`, it closes its spares, prints the same,
 * and lives on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SpareSupervisor } from '../../server/runtime/process/spare-supervisor.js';

const mode = process.argv[2];
const held = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(held, 0, 0, ms);
const childrenOf = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
const cmdlineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');

/** The spare spawner and its spare, once the spare's launcher runs (the spare got well past its handoff). */
function spareRunning(): { helper: number; spare: number } | undefined {
  try {
    for (const helper of childrenOf(process.pid)) {
      if (!cmdlineOf(helper).includes('spare-spawner-process.mjs')) continue;
      for (const spare of childrenOf(helper)) {
        if (childrenOf(spare).some((launcher) => cmdlineOf(launcher).startsWith('/bin/sh'))) return { helper, spare };
      }
    }
  } catch {
    // Gone or not there yet.
  }
  return undefined;
}

const script = fileURLToPath(new URL('../../server/runtime/process/supervisor.mjs', import.meta.url));
// Its spawn request is written now; from here to the end of the loop below nothing is read from the channel.
const spares = new SpareSupervisor(script, `spare-handoff-${process.pid}`);
let found: ReturnType<typeof spareRunning>;
for (let waited = 0; !(found = spareRunning()); waited += 50) {
  if (waited > 60_000) {
    console.log('no spare');
    process.exit(1);
  }
  sleep(50);
}
if (mode === 'close') spares.close();
console.log(`helper ${found.helper} spare ${found.spare}`);
if (mode === 'close') setInterval(() => {}, 1000);
else for (;;) sleep(1000);
