/**
 * The retention's disk budget (server/runtime/process/retention.ts): ended session directories
 * hold at most the budget in all, bytes and entries (inodes), the account retaining the most
 * giving up its oldest first; live ones are never counted or removed, and the age limit still applies.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RetainedSessions } from '../../server/runtime/process/retention.js';

const MiB = 1024 * 1024;

describe('retained session directories', () => {
  const sessionsDir = mkdtempSync(join(tmpdir(), 'retained-'));
  const made: RetainedSessions[] = [];
  const retention = (budgetBytes: number, budgetEntries?: number) => {
    const retained = new RetainedSessions(sessionsDir, budgetBytes, budgetEntries);
    made.push(retained);
    return retained;
  };
  afterEach(() => void execFileSync('/bin/rm', ['-rf', sessionsDir]));
  afterAll(() => Promise.all(made.map((retained) => retained.close())));

  /** A session directory with a 1 MiB file in work/, ended at `at` (or live: no end), of `accountId` (or of none recorded). */
  const session = (id: string, at: number | undefined, accountId?: string) => {
    mkdirSync(join(sessionsDir, id, 'work'), { recursive: true });
    writeFileSync(join(sessionsDir, id, 'work', 'data'), Buffer.alloc(MiB, 1));
    const state = at === undefined ? { phase: 'running', supervisorPid: process.pid, accountId } : { phase: 'ended', at, accountId };
    writeFileSync(join(sessionsDir, id, 'state.json'), JSON.stringify(state));
  };
  const kept = (...ids: string[]) => ids.filter((id) => existsSync(join(sessionsDir, id)));

  it('removes the oldest ended directories of one account while they hold more than the budget', async () => {
    for (const [id, at] of [['s3', 3000], ['s1', 1000], ['s4', 4000], ['s2', 2000]] as const) session(id, at);
    session('live', undefined);
    const retained = retention(2.5 * MiB);
    const isLive = (id: string) => id === 'live';
    expect((await retained.purge({ before: 0, isLive })).sort()).toEqual(['s1', 's2']);
    expect(kept('s1', 's2', 's3', 's4', 'live')).toEqual(['s3', 's4', 'live']);
    // A session that ends is counted at once: the oldest kept one goes.
    session('s5', 5000);
    expect(await retained.sessionEnded('s5', 5000, undefined)).toEqual(['s3']);
    expect(kept('s3', 's4', 's5', 'live')).toEqual(['s4', 's5', 'live']);
    // The age limit still applies, whatever the budget.
    expect(await retained.purge({ before: 4500, isLive })).toEqual(['s4']);
    expect(kept('s4', 's5', 'live')).toEqual(['s5', 'live']);
  });

  it('removes the oldest ended directories while they hold more entries than the budget, empty files included', async () => {
    for (const [id, at] of [['s2', 2000], ['s1', 1000], ['s3', 3000]] as const) session(id, at);
    // 1,000 empty files: an inode each, no bytes.
    for (let i = 0; i < 1000; i++) writeFileSync(join(sessionsDir, 's2', 'work', `empty-${i}`), '');
    // Far under the byte budget, over the entries' (s2 alone holds 1,000 of them; the others 3 each).
    const retained = retention(100 * MiB, 1000);
    expect(await retained.purge({ before: 0, isLive: () => false })).toEqual(['s1', 's2']);
    expect(kept('s1', 's2', 's3')).toEqual(['s3']);
  });

  it('takes from the account retaining the most entries when the entries are over, not the most bytes', async () => {
    for (const [id, at] of [['few1', 1000], ['few2', 2000]] as const) session(id, at, 'few');
    session('many3', 3000, 'many');
    for (let i = 0; i < 1000; i++) writeFileSync(join(sessionsDir, 'many3', 'work', `empty-${i}`), '');
    // The few account retains the most bytes (2 MiB against 1), the many account the most entries.
    const retained = retention(100 * MiB, 1000);
    expect(await retained.purge({ before: 0, isLive: () => false })).toEqual(['many3']);
    expect(kept('few1', 'few2', 'many3')).toEqual(['few1', 'few2']);
  });

  /** How many times the event loop turned while `work` ran: none when it held the loop throughout. */
  const turnsDuring = async (work: () => Promise<unknown>) => {
    let turns = 0;
    let next = setImmediate(function turn() {
      turns++;
      next = setImmediate(turn);
    });
    await work();
    clearImmediate(next);
    return turns;
  };

  it('walks and removes a large directory off the event loop', async () => {
    session('large', 1000);
    for (let i = 0; i < 5000; i++) writeFileSync(join(sessionsDir, 'large', 'work', `empty-${i}`), '');
    const retained = retention(100 * MiB);
    // Counted when it ends (a worker thread walks it), then removed past the retention (an rm child).
    expect(await turnsDuring(() => retained.sessionEnded('large', 1000, undefined))).toBeGreaterThan(0);
    expect(kept('large')).toEqual(['large']);
    expect(await turnsDuring(() => retained.purge({ before: 2000, isLive: () => false }))).toBeGreaterThan(0);
    expect(kept('large')).toEqual([]);
  });

  it("takes from the account retaining the most, so one account's large sessions do not push out another's", async () => {
    for (const [id, at] of [['quiet1', 1000], ['quiet2', 2000]] as const) session(id, at, 'quiet');
    for (const [id, at] of [['big3', 3000], ['big4', 4000], ['big5', 5000], ['big6', 6000]] as const) session(id, at, 'big');
    const retained = retention(4.5 * MiB);
    // Oldest first across accounts would take quiet1 and quiet2.
    expect((await retained.purge({ before: 0, isLive: () => false })).sort()).toEqual(['big3', 'big4']);
    expect(kept('quiet1', 'quiet2')).toEqual(['quiet1', 'quiet2']);
    // Its next session pushes out its own oldest while it retains the most (3 MiB against 2).
    session('big7', 7000, 'big');
    expect(await retained.sessionEnded('big7', 7000, 'big')).toEqual(['big5']);
    // Once the quiet account retains the most, its oldest goes.
    session('quiet8', 8000, 'quiet');
    expect(await retained.sessionEnded('quiet8', 8000, 'quiet')).toEqual(['quiet1']);
    expect(kept('quiet1', 'quiet2', 'quiet8', 'big6', 'big7')).toEqual(['quiet2', 'quiet8', 'big6', 'big7']);
  });

  it('removes a directory its game server made uncountable first, not every older one', async () => {
    for (const [id, at] of [['s1', 1000], ['s2', 2000]] as const) session(id, at);
    session('hostile', 3000);
    // Nested past PATH_MAX: no walk by whole paths can count what is under it.
    const name = 'd'.repeat(200);
    execFileSync('/bin/sh', ['-c', `cd "$1" && i=0; while [ $i -lt 25 ]; do mkdir ${name} && cd ${name}; i=$((i+1)); done; echo x > f`, 'sh', join(sessionsDir, 'hostile', 'work')]);
    const retained = retention(10 * MiB);
    expect(await retained.purge({ before: 0, isLive: () => false })).toEqual(['hostile']);
    expect(kept('s1', 's2', 'hostile')).toEqual(['s1', 's2']);
  });
});
