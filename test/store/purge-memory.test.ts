/**
 * The SQLite connection keeps temp data in memory (temp_store = MEMORY, group-commit.ts), and a
 * savepoint's sub-journal holds a copy of every page the savepoint changes. The retention's purge
 * of ended sessions, one savepoint for all of them, held them all in RAM (+105 MiB for 300k
 * sessions, a week of a busy service); purged a bounded chunk per savepoint it holds one chunk.
 * Run in a process of its own, so that its peak resident memory is the purge's.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the purge of ended sessions', () => {
  it('removes them all without holding them in memory at once', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'test/support/purge-memory-child.mts', '150000'], { encoding: 'utf8' });
    const { purged, rssGrowthMiB } = JSON.parse(out.trim().split('\n').pop()!) as { purged: number; rssGrowthMiB: number };
    expect(purged).toBe(150_000);
    // One savepoint for all: ~46 MiB here; a chunk per savepoint: ~2.
    expect(rssGrowthMiB).toBeLessThan(20);
  }, 60_000);
});
