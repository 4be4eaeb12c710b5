/**
 * The session service against a runtime the test drives by hand: events in awkward orders and
 * launches that fail late. Each case once threw (an illegal transition) or left a wrong state.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Catalog } from '../../server/domain/catalog.js';
import { Quota } from '../../server/domain/quota.js';
import { Sessions } from '../../server/domain/sessions.js';
import type { LaunchSpec, Runtime, RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { createAccountRepository } from '../../server/store/account-repository.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { testFleet } from '../support/service.js';

class HandDrivenRuntime implements Runtime {
  readonly name = 'hand-driven';
  listener: (event: RuntimeEvent) => void = () => {};
  launch: () => Promise<void> = async () => {};
  stops: string[] = [];
  /** The runtime knows sessions by key; the tests name them by the id they chose (SESSION_ID). */
  private readonly keys = new Map<string, string>();
  onEvent(listener: (event: RuntimeEvent) => void) {
    this.listener = listener;
  }
  start(spec: LaunchSpec) {
    this.keys.set(spec.env.SESSION_ID!, spec.sessionId);
    return this.launch();
  }
  async stop(key: string) {
    this.stops.push([...this.keys].find(([, k]) => k === key)?.[0] ?? key);
  }
  async adopt() {}
  logs() {
    return undefined;
  }
  artifactRoot() {
    return undefined;
  }
  async close() {}
  emit(event: Omit<RuntimeEvent, 'at'> & { type: RuntimeEvent['type'] }) {
    this.listener({ at: Date.now(), exitCode: 0, signal: null, ...event, sessionId: this.keys.get(event.sessionId) ?? event.sessionId } as RuntimeEvent);
  }
}

/**
 * `launchedAt`: the quota's read of an account's live launches (to make it fail). `storeAway`:
 * while its `away` is set, every read of a session fails (the database unreachable).
 */
function setup({ launchedAt, storeAway }: { launchedAt?: (read: () => Promise<number[]>) => Promise<number[]>; storeAway?: { away: boolean } } = {}) {
  const db = openDatabase(':memory:');
  /** Store commits so far (the connection's instrumented hook). */
  const commits = { count: 0 };
  const accounts = createSqliteStore(db, { committed: () => commits.count++ }).accounts;
  createAccountRepository(db).insert({ id: 'acc', name: 'A', email: null, quotaMinutes: 100, usedSeconds: 0, operator: false, disabled: false, created: 0 });
  const runtime = new HandDrivenRuntime();
  const errors: unknown[] = [];
  const now = () => Date.now();
  const sessionStore = createSqliteStore(db).sessions;
  const repository: typeof sessionStore = storeAway
    ? { ...sessionStore, find: (...args) => (storeAway.away ? unreachable() : sessionStore.find(...args)) }
    : sessionStore;
  const sessions = new Sessions({
    repository,
    runtime,
    catalog: new Catalog(testFleet(), { has: async () => false, register: async () => {}, all: async () => [] }),
    quota: new Quota(
      { account: (id) => accounts.findById(id), addUsedSeconds: (id, s) => accounts.addUsedSeconds(id, s), launchedAt: (id) => (launchedAt ? launchedAt(() => repository.launchedAt(id)) : repository.launchedAt(id)), accountsWithLiveSessions: () => repository.accountsWithLiveSessions() },
      { charge: true, terminate: true, graceMs: 0, tickMs: 1000 },
      now,
    ),
    startRate: { take: async () => ({ ok: true }) },
    now,
    onError: (error) => errors.push(error),
  });
  const statuses: string[] = [];
  sessions.onChange(({ session }) => statuses.push(session.status));
  return { sessions, runtime, errors, statuses, commits, close: () => sessions.close().then(() => db.close()) };
}

/** A PostgreSQL read refused while the database is away (watch.ts's DatabaseUnreachable). */
const unreachable = () => Promise.reject(Object.assign(new Error('the database could not be reached'), { nothingSent: true }));

const request = (id: string, extra = {}) => ({ id, location: 'local-a', image: 'echo', ...extra });

describe('the session service with events in awkward orders', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops a restarting session straight to shutting down', async () => {
    const { sessions, runtime, statuses, close } = setup();
    await sessions.start('acc', request('r1'));
    runtime.emit({ type: 'running', sessionId: 'r1' });
    runtime.emit({ type: 'restarting', sessionId: 'r1' });
    // Runtime events are applied in the background: the stop comes once the session is restarting.
    await expect.poll(() => statuses.at(-1)).toBe('restarting');
    expect(await sessions.stop('acc', 'r1')).toEqual({ ok: true });
    runtime.emit({ type: 'exited', sessionId: 'r1' });
    await expect.poll(() => statuses).toEqual(['created', 'running', 'restarting', 'shuttingdown', 'exited']);
    await expect.poll(() => sessions.get('acc', 'r1')).toMatchObject({ status: 'exited', endReason: 'stopped' });
    await close();
  });

  it('writes a running session\'s stop (draining, then shutting down) in one commit', async () => {
    const { sessions, runtime, statuses, commits, close } = setup();
    await sessions.start('acc', request('w1'));
    runtime.emit({ type: 'running', sessionId: 'w1' });
    await expect.poll(() => statuses.at(-1)).toBe('running');
    const before = commits.count;
    expect(await sessions.stop('acc', 'w1')).toEqual({ ok: true });
    expect(commits.count - before).toBe(1);
    expect(statuses).toEqual(['created', 'running', 'draining', 'shuttingdown']);
    expect(runtime.stops).toEqual(['w1']);
    await close();
  });

  it('ends a restarting session whose ttl runs out, reporting nothing', async () => {
    vi.useFakeTimers();
    const { sessions, runtime, errors, close } = setup();
    await sessions.start('acc', request('r2', { ttl: '1m' }));
    runtime.emit({ type: 'running', sessionId: 'r2' });
    runtime.emit({ type: 'restarting', sessionId: 'r2' });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(61_000);
    runtime.emit({ type: 'exited', sessionId: 'r2' });
    await expect.poll(() => sessions.get('acc', 'r2')).toMatchObject({ status: 'exited', endReason: 'ttl_expired' });
    expect(errors).toEqual([]);
    await close();
  });

  it('records a launch that fails after a stop began as that stop, without an error', async () => {
    const { sessions, runtime, close } = setup();
    let fail: ((error: Error) => void) | undefined;
    runtime.launch = () => new Promise((_, reject) => (fail = reject));
    const starting = sessions.start('acc', request('r3'));
    await expect.poll(() => fail).toBeDefined();
    await sessions.stop('acc', 'r3');
    fail!(new Error('spawn failed'));
    expect(await starting).toMatchObject({ ok: true, session: { status: 'exited', endReason: 'stopped' } });
    await close();
  });

  it('launches a start whose quota read fails after its placement committed, rather than answering it failed', async () => {
    // The second read is the one after the commit (the first is the start's quota check). The
    // database went away just then (PostgreSQL restarting): answered "nothing of this request was
    // done, retry", the session stayed `created` in the store, never launched, never timed out.
    let reads = 0;
    const { sessions, runtime, errors, close } = setup({
      launchedAt: (read) => (++reads === 2 ? unreachable() : read()),
    });
    expect(await sessions.start('acc', request('q1'))).toMatchObject({ ok: true, session: { id: 'q1', status: 'created' } });
    runtime.emit({ type: 'running', sessionId: 'q1' });
    await expect.poll(() => sessions.get('acc', 'q1')).toMatchObject({ status: 'running' });
    expect(reads).toBeGreaterThanOrEqual(2);
    // Told to the service's health, as any background store failure.
    expect(errors).toHaveLength(1);
    await close();
  });

  it('announces an end whose quota read failed after it committed (event streams, webhooks and timers hear of it)', async () => {
    // The next read fails (once): the one right after the end's commit.
    let failNext = false;
    const { sessions, runtime, statuses, errors, close } = setup({
      launchedAt: (read) => {
        if (!failNext) return read();
        failNext = false;
        return unreachable();
      },
    });
    await sessions.start('acc', request('q2'));
    runtime.emit({ type: 'running', sessionId: 'q2' });
    await expect.poll(() => statuses.at(-1)).toBe('running');
    failNext = true;
    runtime.emit({ type: 'exited', sessionId: 'q2' });
    await expect.poll(() => sessions.get('acc', 'q2')).toMatchObject({ status: 'dead', endReason: 'exited' });
    await expect.poll(() => statuses).toEqual(['created', 'running', 'dead']);
    // The failed read is reported, once.
    expect(errors).toHaveLength(1);
    await close();
  });

  it('stops a session past its ttl once the store answers again, when it could not be read at the ttl', async () => {
    vi.useFakeTimers();
    const storeAway = { away: false };
    const { sessions, runtime, close } = setup({ storeAway });
    await sessions.start('acc', request('t1', { ttl: '1m' }));
    runtime.emit({ type: 'running', sessionId: 't1' });
    await vi.advanceTimersByTimeAsync(0);
    storeAway.away = true;
    await vi.advanceTimersByTimeAsync(61_000);
    storeAway.away = false;
    // Before, the ttl's timer was spent (and its failure unhandled): the session ran on for good.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runtime.stops).toEqual(['t1']);
    expect(await sessions.get('acc', 't1')).toMatchObject({ status: 'shuttingdown', pendingEndReason: 'ttl_expired' });
    await close();
  });

  it('ends a start past its deadline once the store answers again, when it could not be read at the deadline', async () => {
    vi.useFakeTimers();
    const storeAway = { away: false };
    const { sessions, runtime, close } = setup({ storeAway });
    await sessions.start('acc', request('d1'));
    await vi.advanceTimersByTimeAsync(0);
    storeAway.away = true;
    await vi.advanceTimersByTimeAsync(61_000);
    storeAway.away = false;
    // Before, the deadline was spent: `created` for good (holding its ports and place), reported failing for good.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await sessions.get('acc', 'd1')).toMatchObject({ status: 'dead', endReason: 'start_failed' });
    expect(runtime.stops).toEqual(['d1']);
    await close();
  });

  it('ignores a late running event once a stop began', async () => {
    const { sessions, runtime, statuses, close } = setup();
    await sessions.start('acc', request('r4'));
    await sessions.stop('acc', 'r4');
    runtime.emit({ type: 'running', sessionId: 'r4' });
    runtime.emit({ type: 'exited', sessionId: 'r4' });
    await expect.poll(() => statuses).toEqual(['created', 'shuttingdown', 'exited']);
    await close();
  });

  it('refuses environment names that would change what runs', async () => {
    const { sessions, close } = setup();
    for (const env of [{ PATH: '/tmp' }, { LD_PRELOAD: 'x.so' }, { NODE_OPTIONS: '--import=x' }, { SESSION_ID: 'other' }, { 'bad name': 'x' }, { BASH_ENV: 'x' }, { PYTHONSTARTUP: 'x' }]) {
      expect(await sessions.start('acc', request(`e${Object.keys(env)[0]}`, { env }))).toMatchObject({ ok: false, reason: 'reserved_env' });
    }
    expect(await sessions.start('acc', request('fine', { env: { MAX_PLAYERS: '8', 'my-secret': 's', 'game.mode': 'ctf' } }))).toMatchObject({ ok: true });
    await close();
  });
});
