/** The process runtime's waiting spare, seen from /proc: its supervisor (a child of this process's spare spawner) and that supervisor's launcher. */
import { readdirSync, readFileSync } from 'node:fs';
import { eventually } from './eventually.mjs';

/** Children of every thread of `pid`: a child is listed under the thread that forked it (a test runs in a worker thread). */
const childrenOf = (pid: number) =>
  readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
const cmdlineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');

/** The waiting (unsandboxed) spare supervisor of the runtime with `instanceId` (unique to the test: a worker runs other files' runtimes too) and its launcher, once both are there. */
export async function spare(instanceId: string): Promise<{ supervisor: number; launcher: number }> {
  const found = await eventually(
    () => {
      try {
        for (const supervisor of childrenOf(process.pid).flatMap(childrenOf)) {
          if (!cmdlineOf(supervisor).includes(`supervisor.mjs --instance=${instanceId} `)) continue;
          const [launcher] = childrenOf(supervisor);
          if (launcher !== undefined && cmdlineOf(launcher).startsWith('/bin/sh')) return { supervisor, launcher };
        }
      } catch {
        // Gone or not there yet.
      }
      return undefined;
    },
    { timeoutMs: 30_000, what: 'the spare supervisor and its launcher' },
  );
  return found!;
}
