/**
 * The retention's disk budget (server/runtime/process/retention.ts): ended session directories
 * hold at most the budget in all, the account retaining the most giving up its oldest first; live
 * ones are never counted or removed, and the age limit still applies.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RetainedSessions } from '../../server/runtime/process/retention.js';

const MiB = 1024 * 1024;

describe('retained session directories', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'retained-'));
  afterEach(() => void execFileSync('/bin/rm', ['-rf', sessionsDir]));

  /** A session directory with a 1 MiB file in work/, ended at `at` (or live: no end), of `accountId` (or of none recorded). */
  const session = (id: string, at: number | undefined, accountId?: string) => {
    mkdirSync(join(sessionsDir, id, 'work'), { recursive: true });
    writeFileSync(join(sessionsDir, id, 'work', 'data'), Buffer.alloc(MiB, 1));
    const state = at === undefined ? { phase: 'running', supervisorPid: process.pid, accountId } : { phase: 'ended', at, accountId };
    writeFileSync(join(sessionsDir, id, 'state.json'), JSON.stringify(state));
  };
  const kept = (...ids: string[]) => ids.filter((id) => existsSync(join(sessionsDir, id)));

  it("removes the oldest ended directories of one account while they hold more than the budget", () => {
    for (const [id, at] of [['s3', 3000], ['s1', 1000], ['s4', 4000], ['s2', 2000]] as const) session(id, at);
    session('live', undefined);
    const retained = new RetainedSessions(sessionsDir, 2.5 * MiB);
    const isLive = (id: string) => id === 'live';
    expect(retained.purge({ before: 0, isLive }).sort()).toEqual(['s1', 's2']);
    expect(kept('s1', 's2', 's3', 's4', 'live')).toEqual(['s3', 's4', 'live']);
    // A session that ends is counted at once: the oldest kept one goes.
    session('s5', 5000);
    expect(retained.sessionEnded('s5', 5000, undefined)).toEqual(['s3']);
    expect(kept('s3', 's4', 's5', 'live')).toEqual(['s4', 's5', 'live']);
    // The age limit still applies, whatever the budget.
    expect(retained.purge({ before: 4500, isLive })).toEqual(['s4']);
    expect(kept('s4', 's5', 'live')).toEqual(['s5', 'live']);
  });

  it("takes from the account retaining the most, so one account's large sessions do not push out another's", () => {
    for (const [id, at] of [['quiet1', 1000], ['quiet2', 2000]] as const) session(id, at, 'quiet');
    for (const [id, at] of [['big3', 3000], ['big4', 4000], ['big5', 5000], ['big6', 6000]] as const) session(id, at, 'big');
    const retained = new RetainedSessions(sessionsDir, 4.5 * MiB);
    // Oldest first across accounts would take quiet1 and quiet2.
    expect(retained.purge({ before: 0, isLive: () => false }).sort()).toEqual(['big3', 'big4']);
    expect(kept('quiet1', 'quiet2')).toEqual(['quiet1', 'quiet2']);
    // Its next session pushes out its own oldest while it retains the most (3 MiB against 2).
    session('big7', 7000, 'big');
    expect(retained.sessionEnded('big7', 7000, 'big')).toEqual(['big5']);
    // Once the quiet account retains the most, its oldest goes.
    session('quiet8', 8000, 'quiet');
    expect(retained.sessionEnded('quiet8', 8000, 'quiet')).toEqual(['quiet1']);
    expect(kept('quiet1', 'quiet2', 'quiet8', 'big6', 'big7')).toEqual(['quiet2', 'quiet8', 'big6', 'big7']);
  });

  it('removes a directory its game server made uncountable first, not every older one', () => {
    for (const [id, at] of [['s1', 1000], ['s2', 2000]] as const) session(id, at);
    session('hostile', 3000);
    // Nested past PATH_MAX: no walk by whole paths can count what is under it.
    const name = 'd'.repeat(200);
    execFileSync('/bin/sh', ['-c', `cd "$1" && i=0; while [ $i -lt 25 ]; do mkdir ${name} && cd ${name}; i=$((i+1)); done; echo x > f`, 'sh', join(sessionsDir, 'hostile', 'work')]);
    const retained = new RetainedSessions(sessionsDir, 10 * MiB);
    expect(retained.purge({ before: 0, isLive: () => false })).toEqual(['hostile']);
    expect(kept('s1', 's2', 'hostile')).toEqual(['s1', 's2']);
  });
});
