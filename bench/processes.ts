/**
 * Every process the benchmark starts is registered here, so that an error, a timeout or
 * Ctrl+C still leaves nothing behind. The process runtime's supervisors deliberately outlive
 * the service; they are found through the state.json files of the registered data directories.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const children = new Set<ChildProcess>();
const dataDirs = new Set<string>();

export function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function trackDataDir(dir: string): void {
  dataDirs.add(dir);
}

export function untrackDataDir(dir: string): void {
  dataDirs.delete(dir);
}

/** The start time of a process (field 22 of /proc/<pid>/stat), as the supervisor records it. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

interface SupervisorState {
  supervisorPid?: number;
  supervisorStart?: string;
  gamePid?: number | null;
  gameStart?: string | null;
  phase?: string;
}

/**
 * SIGKILL the supervisor and game server process group of every session recorded under a data
 * directory that has not ended. A PID counts only while its start time still matches the one
 * recorded, so a reused PID (some other process) is never signalled.
 */
export function reapSessions(dataDir: string): number {
  const sessions = join(dataDir, 'sessions');
  if (!existsSync(sessions)) return 0;
  let killed = 0;
  for (const id of readdirSync(sessions)) {
    let state: SupervisorState;
    try {
      state = JSON.parse(readFileSync(join(sessions, id, 'state.json'), 'utf8'));
    } catch {
      continue; // No state: nothing was started.
    }
    const targets: [number | null | undefined, string | null | undefined, number][] = [
      [state.supervisorPid, state.supervisorStart, 1],
      [state.gamePid, state.gameStart, -1],
    ];
    for (const [pid, start, sign] of targets) {
      if (!pid || !start || startTimeOf(pid) !== start) continue;
      try {
        process.kill(sign * pid, 'SIGKILL');
        killed++;
      } catch {
        // Already gone.
      }
    }
  }
  return killed;
}

/** Synchronous, so it also works from an `exit` handler. */
export function killEverything(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const dir of dataDirs) reapSessions(dir);
}
