/**
 * Two instances changing one session at once on PostgreSQL: the holder of its node records
 * `running` while a stop comes in through another instance. Each change holds the session's row
 * from its read to its commit, so the second waits, sees the first, and decides again: the
 * acknowledged stop is never overwritten by a `running` read before it (it was, once, in the
 * instance-kill test).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../server/domain/ports/runtime.js';
import type { SessionRepository } from '../../server/domain/ports/sessions.js';
import type { Quota } from '../../server/domain/quota.js';
import { SessionMachine } from '../../server/domain/session-machine.js';
import { openPostgresStore } from '../../server/store/postgres/store.js';
import type { Store } from '../../server/store/store.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { lockWaitOr } from '../support/pg-lock-wait.js';
import { createDatabase } from '../support/postgres.mjs';
import { account, session } from '../support/store-records.js';

const runtime = { stop: async () => {} } as unknown as Runtime;
const quota = { chargeEnded: async () => {}, recompute: async () => {} } as unknown as Quota;
const reporter = { failed: () => 'x', recovered: () => {} };
const machineOn = (sessions: SessionRepository) => new SessionMachine(sessions, runtime, quota, () => 5000, reporter);

const missing = clusterTestsMissing();
describe.skipIf(missing)(`a session changed through two instances at once${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const stores: Store[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  it('is changed one after the other: a stop through one instance survives the holder recording running', async () => {
    const url = await createDatabase('change_lock');
    const [holder, other] = [await openPostgresStore(url), await openPostgresStore(url)];
    stores.push(holder, other);
    await holder.accounts.insert(account('acc'));
    const record = session('s1');
    await holder.sessions.insert(record);

    // The holder's change pauses right after reading the session (status `created`).
    let paused!: () => void;
    const pausedAfterRead = new Promise<void>((resolve) => (paused = resolve));
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    const holderSessions: SessionRepository = {
      ...holder.sessions,
      find: async (key) => {
        const found = await holder.sessions.find(key);
        paused();
        await resumed;
        return found;
      },
    };
    const running = machineOn(holderSessions).transition(record.key, 'running', { runningSince: 5000 }, 'created');
    await pausedAfterRead;

    // Meanwhile a stop through the other instance, which read `created` too.
    const stop = machineOn(other.sessions).end(record, 'stopped');
    // It must wait for the holder's row lock (seen in pg_stat_activity), or, without it, finish first.
    await lockWaitOr(url, stop);
    resume();
    await Promise.all([running, stop]);

    const after = (await other.sessions.find(record.key))!;
    expect(after.status).toBe('shuttingdown');
    expect(after.pendingEndReason).toBe('stopped');
    // The log has both changes, the stop's from the state the holder left.
    const events = await other.sessions.eventsAfter('acc', 0, 10);
    expect(events.map((e) => `${e.previous}->${e.status}`)).toEqual(['created->running', 'running->draining', 'draining->shuttingdown']);
  });
});
