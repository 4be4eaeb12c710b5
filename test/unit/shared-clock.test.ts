/**
 * sharedWall (server/clock.ts): an instance's clock against its database's. The database's time
 * is taken at the middle of a round trip; one slow round trip at start (a busy database) put that
 * middle more than the tolerance away from when the database read its clock, and an instance
 * whose clock agreed with the database's was shifted (and said its clock was off).
 */
import { describe, expect, it } from 'vitest';
import { sharedWall } from '../../server/clock.js';

describe('sharedWall', () => {
  it('keeps an agreeing clock when one round trip was slow, whichever it was', async () => {
    // First and last: the shortest is taken, not the first one's nor the last one's.
    for (const rounds of [[3000, 10, 10], [10, 10, 3000]]) {
      let wall = 1_000_000;
      const round = [...rounds];
      // The database reads its clock (the same as this machine's) as the query arrives, then answers slowly.
      const databaseMs = async () => {
        const at = wall;
        wall += round.shift()!;
        return at;
      };
      const shared = await sharedWall(() => wall, databaseMs);
      expect(shared.offsetMs, rounds.join()).toBe(0);
    }
  });

  it('follows a database an hour ahead', async () => {
    let wall = 1_000_000;
    const databaseMs = async () => {
      wall += 20;
      return wall - 10 + 3_600_000;
    };
    const shared = await sharedWall(() => wall, databaseMs);
    expect(shared.offsetMs).toBe(3_600_000);
    expect(shared.wall() - wall).toBe(3_600_000);
  });
});
