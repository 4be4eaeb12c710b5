/**
 * Supervisors and game servers outlive their runtime by design, so a runtime-level test ends them
 * itself: a test that fails half-way, or that removes a session's directory while its supervisor
 * is still stopping (the supervisor then dies on its next write there, before it ended its game),
 * must leave nothing running.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSameProcess } from '../../server/runtime/process/proc.js';
import { removeTree } from '../../server/runtime/process/retention.js';

/** SIGKILLs every supervisor, and every game server's process group, recorded in the sessions directory (only while their pids are still theirs). */
export function killSessionProcesses(sessionsDir: string): void {
  if (!existsSync(sessionsDir)) return;
  for (const id of readdirSync(sessionsDir)) {
    let state: { supervisorPid?: number; supervisorStart?: string; gamePid?: number | null; gameStart?: string | null };
    try {
      state = JSON.parse(readFileSync(join(sessionsDir, id, 'state.json'), 'utf8'));
    } catch {
      continue; // No state written: nothing was started.
    }
    const targets: [number | null | undefined, string | null | undefined, number][] = [
      [state.supervisorPid, state.supervisorStart, 1],
      // The game server leads a process group of its own (its launcher's).
      [state.gamePid, state.gameStart, -1],
    ];
    for (const [pid, start, sign] of targets) {
      if (!pid || !start || !isSameProcess(pid, start)) continue;
      try {
        process.kill(sign * pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
  }
}

/** Ends what ran under the sessions directory, then removes it (however deep a game server nested its files). */
export function reapSessionsDir(sessionsDir: string): void {
  killSessionProcesses(sessionsDir);
  removeTree(sessionsDir);
}
