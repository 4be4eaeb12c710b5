/**
 * A process runtime's spare supervisors in a process out of file descriptors (spare-spawn-failure.test.ts):
 * prints what take() did, or UNCAUGHT when a failed spawn reached the process's last resort.
 */
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SpareSupervisor, dismiss } from '../../server/runtime/process/spare-supervisor.js';

process.on('uncaughtException', (error) => {
  console.log(`UNCAUGHT ${error.message}`);
  process.exit(1);
});
process.on('unhandledRejection', (reason) => {
  console.log(`UNHANDLED ${(reason as Error).message}`);
  process.exit(1);
});

// The spares' pipes are unreferenced (they must not hold a service open): this holds the test's process.
const keepAlive = setInterval(() => {}, 1000);
const script = fileURLToPath(new URL('../../server/runtime/process/supervisor.mjs', import.meta.url));
const spares = new SpareSupervisor(script, 'spawn-failure-test');
// The waiting spare serves one start while descriptors last.
const first = await spares.take();
dismiss(first.child);

// No descriptor left: the replacement spare and a start's own spawn fail.
const held: number[] = [];
const exhaust = () => {
  try {
    for (;;) held.push(openSync('/dev/null', 'r'));
  } catch {
    // EMFILE: the process is out.
  }
};
exhaust();
spares.replenishAfter(Promise.resolve());
await new Promise((resolve) => setTimeout(resolve, 100));
// Out again: the dismissed spare's pipes may have closed meanwhile.
exhaust();
const outcome = await spares.take().then(
  () => 'taken',
  (error: Error) => `refused: ${error.message}`,
);
for (const fd of held) closeSync(fd);
console.log(outcome);

// Descriptors back: starts are served again.
const again = await spares.take();
console.log(again.child.pid ? 'served again' : 'not served');
dismiss(again.child);
spares.close();
clearInterval(keepAlive);
