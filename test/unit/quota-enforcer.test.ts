/**
 * With several instances only the leader ends exhausted accounts' sessions: a follower's Quota
 * finds nothing to do, and on becoming the leader it computes deadlines afresh from the store
 * (where the other instances' sessions are), then ends them after the grace.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Quota } from '../../server/domain/quota.js';
import { eventually } from '../support/eventually.mjs';

describe('quota enforcement, leader only', () => {
  const quotas: Quota[] = [];
  afterEach(() => quotas.splice(0).forEach((q) => q.close()));

  function quota(clock: { now: number }, ended: string[]) {
    // An account one minute over its quota, with one live session launched by another instance.
    const store = {
      account: async () => ({ quotaMinutes: 1, usedSeconds: 120 }),
      addUsedSeconds: async () => {},
      launchedAt: async () => [clock.now - 1000],
      accountsWithLiveSessions: async () => ['acc'],
    };
    const q = new Quota(store, { charge: true, terminate: true, graceMs: 0, tickMs: 10 }, () => clock.now);
    q.whenExhausted((accountId) => ended.push(accountId));
    quotas.push(q);
    return q;
  }

  it('ends nothing while following, and the exhausted account’s sessions once it leads', async () => {
    const clock = { now: 1_000_000 };
    const ended: string[] = [];
    const follower = quota(clock, ended);
    await follower.enforce(false);
    await follower.recompute('acc');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ended).toEqual([]);
    await follower.enforce(true);
    await eventually(() => ended.length > 0, { what: 'the new leader ending the account' });
    expect(ended[0]).toBe('acc');
  });

  it('looks again at an account whose recompute failed (the store away), and ends it once exhausted', async () => {
    const clock = { now: 1_000_000 };
    const ended: string[] = [];
    let away = true;
    // An account far from its quota when its session started; exhausted by the time the store answers again.
    const store = {
      account: async () => ({ quotaMinutes: 1, usedSeconds: away ? 0 : 120 }),
      addUsedSeconds: async () => {},
      launchedAt: async () => (away ? Promise.reject(new Error('the database could not be reached')) : [clock.now - 1000]),
      accountsWithLiveSessions: async () => ['acc'],
    };
    const q = new Quota(store, { charge: true, terminate: true, graceMs: 0, tickMs: 10 }, () => clock.now);
    quotas.push(q);
    q.whenExhausted((accountId) => ended.push(accountId));
    // Leading from now, but its deadlines cannot be read: the account has none yet.
    await expect(q.enforce(true)).rejects.toThrow('could not be reached');
    away = false;
    await eventually(() => ended.length > 0, { what: 'the tick looking at the account again' });
    expect(ended[0]).toBe('acc');
  });
});
