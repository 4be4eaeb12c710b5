/**
 * Retention of ended sessions' directories (`runtime.retentionHours`): their logs and
 * artifacts stay readable that long after the end, then the directory goes. A directory is
 * ended when its supervisor wrote its end, or when its supervisor is gone and its state has not
 * changed for the whole retention (a supervisor that vanished). A live supervisor's is never.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isSameProcess } from './proc.js';

export function purgeEndedSessions(sessionsDir: string, options: { before: number; isLive: (sessionId: string) => boolean }): string[] {
  const purged: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(sessionsDir);
  } catch {
    return purged;
  }
  for (const sessionId of entries) {
    if (options.isLive(sessionId)) continue;
    const last = lastChange(join(sessionsDir, sessionId));
    if (last === undefined || last >= options.before) continue;
    rmSync(join(sessionsDir, sessionId), { recursive: true, force: true });
    purged.push(sessionId);
  }
  return purged;
}

/** When the session last changed: its end, or its state file's last write; undefined while its supervisor lives. */
function lastChange(dir: string): number | undefined {
  try {
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { phase?: string; at?: number; supervisorPid?: number; supervisorStart?: string };
    if (state.phase === 'ended' && typeof state.at === 'number') return state.at;
    if (state.supervisorPid && state.supervisorStart && isSameProcess(state.supervisorPid, state.supervisorStart)) return undefined;
  } catch {
    // No state yet, or unreadable: fall back to the directory's age.
  }
  try {
    return statSync(join(dir, 'state.json')).mtimeMs;
  } catch {
    try {
      return statSync(dir).mtimeMs;
    } catch {
      return undefined;
    }
  }
}
