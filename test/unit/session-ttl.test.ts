import { afterEach, describe, expect, it, vi } from 'vitest';
import { Catalog } from '../../server/domain/catalog.js';
import { Quota } from '../../server/domain/quota.js';
import { SessionMachine } from '../../server/domain/session-machine.js';
import { SessionTimers } from '../../server/domain/session-timers.js';
import { Sessions } from '../../server/domain/sessions.js';
import { SimulatedRuntime } from '../../server/runtime/simulated-runtime.js';
import { createAccountRepository } from '../../server/store/account-repository.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { testFleet } from '../support/service.js';

function setup(now: () => number) {
  const db = openDatabase(':memory:');
  createAccountRepository(db).insert({
    id: 'acc', name: 'A', email: null, quotaMinutes: 10, usedSeconds: 0, operator: false, disabled: false, created: 0,
  });
  const accounts = createSqliteStore(db).accounts;
  const repository = createSqliteStore(db).sessions;
  const quota = new Quota(
    { account: (id) => accounts.findById(id), addUsedSeconds: async () => {}, launchedAt: async () => [], accountsWithLiveSessions: async () => [] },
    { charge: false, terminate: false, graceMs: 0, tickMs: 1000 },
    now,
  );
  const sessions = new Sessions({
    repository,
    runtime: new SimulatedRuntime({ readyMs: 100, stopMs: 100, now }),
    catalog: new Catalog(testFleet(), { has: async () => false, register: async () => {}, all: async () => [] }),
    quota,
    startRate: { take: async () => ({ ok: true }) },
    now,
  });
  return { db, sessions };
}

describe('session ttl', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops a session when its ttl runs out, through draining and shutting down, ending ttl_expired', async () => {
    vi.useFakeTimers();
    const { db, sessions } = setup(() => Date.now());
    const seen: string[] = [];
    sessions.onChange(({ session }) => seen.push(session.status));

    const started = await sessions.start('acc', { id: 'short', location: 'local-a', image: 'echo', ttl: '1m' });
    expect(started).toMatchObject({ ok: true, session: { status: 'created', expires: Date.now() + 60_000 } });
    await vi.advanceTimersByTimeAsync(100);
    await expect.poll(async () => (await sessions.get('acc', 'short'))?.status).toBe('running');
    await vi.advanceTimersByTimeAsync(59_000);
    await expect.poll(async () => (await sessions.get('acc', 'short'))?.status).toBe('running');
    await vi.advanceTimersByTimeAsync(1_000);
    // Writes are committed in a real turn (group commit): the stop's simulated delay starts once
    // it is recorded, so the clock moves on while waiting.
    await expect
      .poll(async () => (await vi.advanceTimersByTimeAsync(20), sessions.get('acc', 'short')))
      .toMatchObject({ status: 'exited', endReason: 'ttl_expired' });
    expect(seen).toEqual(['created', 'running', 'draining', 'shuttingdown', 'exited']);
    await sessions.close();
    db.close();
  });

  it('is not stretched by a wall clock stepped back a day', async () => {
    vi.useFakeTimers();
    let offset = 0;
    const { db, sessions } = setup(() => Date.now() + offset);
    await sessions.start('acc', { id: 'stepped', location: 'local-a', image: 'echo', ttl: '1m' });
    await vi.advanceTimersByTimeAsync(100);
    offset = -24 * 60 * 60 * 1000;
    await vi.advanceTimersByTimeAsync(60_000);
    await expect.poll(() => sessions.get('acc', 'stepped')).toMatchObject({ status: 'exited', endReason: 'ttl_expired' });
    await sessions.close();
    db.close();
  });

  it('keeps one ttl timer per session however often it is armed (a new holder of its node adopting it again)', async () => {
    vi.useFakeTimers();
    const now = () => Date.now();
    const db = openDatabase(':memory:');
    const runtime = new SimulatedRuntime({ readyMs: 100, stopMs: 100, now });
    const machine = new SessionMachine(createSqliteStore(db).sessions, runtime, {} as Quota, now, { failed: () => 'x', recovered: () => {} });
    const timers = new SessionTimers(machine, new Catalog(testFleet(), { has: async () => false, register: async () => {}, all: async () => [] }));
    const session = { key: 'k1', status: 'running', expires: now() + 60_000 } as Parameters<SessionTimers['arm']>[0];
    const before = vi.getTimerCount();
    for (let i = 0; i < 3; i++) timers.arm(session);
    expect(vi.getTimerCount() - before).toBe(1);
    timers.close();
    db.close();
  });
});
