/**
 * Retention of ended sessions' directories (`runtime.retentionHours`): their logs and
 * artifacts stay readable that long after the end, then the directory goes. A directory is
 * ended when its supervisor wrote its end, or when its supervisor is gone and its state has not
 * changed for the whole retention (a supervisor that vanished). A live supervisor's is never.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
    if (removeTree(join(sessionsDir, sessionId))) purged.push(sessionId);
  }
  return purged;
}

/**
 * Removes a session's directory, however deep its game server nested it: not Node's rmSync,
 * which walks by whole paths and throws ENAMETOOLONG past PATH_MAX (a timer's throw would end
 * the service, at every purge), but rm, which descends relative to each directory (fts). False
 * when it could not (tried again at the next purge).
 */
export function removeTree(dir: string): boolean {
  const removed = spawnSync('/bin/rm', ['-rf', '--one-file-system', '--', dir], { stdio: 'ignore', env: {} });
  return removed.status === 0;
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
