/**
 * A warm start hands its game server the session while the claim's fsync runs, never before the
 * claim has committed: at the moment of the handoff, the database files as a kill -9 of the
 * service would leave them (copied then, and opened by a fresh store, as a restarted service
 * does) already hold the session, running, and no longer the warm server. So a crash between the
 * handoff and the fsync cannot leave a game server that was told a session the store never
 * recorded (a free warm server to the next run, handed a second session or counted in its pool).
 * The start is still answered only after that fsync. Without the ordering (a handoff sent from
 * inside the claim's transaction), the copy holds the warm server, free, and no session; without
 * the overlap (a handoff after the fsync), no handoff happens while the fsync is held.
 *
 * A runtime that can send the allocation ahead (prepareAllocation: the process runtime's
 * supervisor wakes and reads it while the claim commits) is sent it from inside the claim's
 * transaction, and the game server applies it only on the `allocate()` that follows the commit:
 * the same moment as above. A claim that rolls back after sending aborts it.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PreparedAllocation, WarmAllocation } from '../../server/domain/ports/runtime.js';
import type { SessionRecord } from '../../server/domain/ports/sessions.js';
import type { WarmServer } from '../../server/domain/ports/warm-servers.js';
import { WarmPools } from '../../server/domain/warm-pools.js';
import { SimulatedRuntime } from '../../server/runtime/simulated-runtime.js';
import { openDatabase, type Db } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import type { Store } from '../../server/store/store.js';
import { sessionsOver } from '../support/domain-sessions.js';
import { account } from '../support/store-records.js';

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** What a service restarted after a kill -9 at this moment would read: the database's files as they are now, in a fresh store. */
async function afterKill9(dataDir: string): Promise<{ warm: WarmServer[]; session: SessionRecord | undefined }> {
  const copy = mkdtempSync(join(tmpdir(), 'warm-kill9-'));
  for (const file of ['service.db', 'service.db-wal']) if (existsSync(join(dataDir, file))) copyFileSync(join(dataDir, file), join(copy, file));
  const db = openDatabase(join(copy, 'service.db'));
  try {
    const store = createSqliteStore(db);
    return { warm: await store.warmServers.all(), session: await store.sessions.findOwned('acc', 'warm-1') };
  } finally {
    db.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

/** The simulated runtime, whose handoff looks at what a kill -9 at its moment would leave. */
class InspectingRuntime extends SimulatedRuntime {
  readonly handoffs: { allocation: WarmAllocation; heldFsyncs: number; afterKill9: Awaited<ReturnType<typeof afterKill9>> }[] = [];
  readonly stops: string[] = [];
  /** Allocations sent ahead, with what a kill -9 at that moment would leave, and whether they were aborted. */
  readonly prepared: { allocation: WarmAllocation; afterKill9: Promise<Awaited<ReturnType<typeof afterKill9>>>; aborted: boolean }[] = [];
  constructor(
    private readonly dataDir: string,
    private readonly heldFsyncs: () => number,
  ) {
    super({ readyMs: 5, stopMs: 5, now: Date.now });
  }
  /** The two-step handoff (off unless a test sets it, as on a runtime without it). */
  declare prepareAllocation?: (key: string, allocation: WarmAllocation) => PreparedAllocation;
  sendsAhead(): this {
    this.prepareAllocation = (key, allocation) => {
      const prepared = { allocation, afterKill9: afterKill9(this.dataDir), aborted: false };
      this.prepared.push(prepared);
      return { allocate: () => this.allocate(key, allocation), abort: () => void (prepared.aborted = true) };
    };
    return this;
  }
  override async allocate(_key: string, allocation: WarmAllocation): Promise<void> {
    // Synchronously, at the handoff's first instruction: nothing the service does later counts.
    const heldFsyncs = this.heldFsyncs();
    const seen = afterKill9(this.dataDir);
    this.handoffs.push({ allocation, heldFsyncs, afterKill9: await seen });
  }
  override async stop(key: string): Promise<void> {
    this.stops.push(key);
    return super.stop(key);
  }
}

/** An fsync's failure as the kernel reports it. */
const eio = () => Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });

/**
 * A pool of one in local-a over a store on a file whose fsyncs are held while `hold` is set, and
 * fail (after syncing) while `fail` counts down.
 */
async function warmService(options: { sendsAhead?: boolean } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'warm-claim-'));
  const held: (() => void)[] = [];
  const fsyncs = { hold: false, fail: 0 };
  const db: Db = openDatabase(join(dataDir, 'service.db'));
  const store: Store = createSqliteStore(db, {
    sync: (fsync) => (done) => {
      if (fsyncs.fail > 0 && fsyncs.fail--) return fsync(() => done(eio()));
      if (fsyncs.hold) held.push(() => fsync(done));
      else fsync(done);
    },
  });
  await store.accounts.insert(account('acc'));
  const runtime = new InspectingRuntime(dataDir, () => held.length);
  if (options.sendsAhead) runtime.sendsAhead();
  const sessions = sessionsOver(store, runtime, {
    warm: { pools: new WarmPools([{ location: 'local-a', image: 'echo', tag: 'latest', warm: 1 }], store.warmServers), servers: store.warmServers },
  });
  cleanup.push(async () => {
    fsyncs.hold = false;
    for (const release of held.splice(0)) release();
    await sessions.close();
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await sessions.recover();
  await vi.waitFor(async () => expect((await store.warmServers.all()).map((server) => server.status)).toEqual(['ready']), { timeout: 5000, interval: 10 });
  return { sessions, store, runtime, held, fsyncs };
}

describe('a warm start’s handoff', () => {
  for (const sendsAhead of [false, true]) {
    it(`comes after the claim has committed and while its fsync runs; the 201 after the fsync${sendsAhead ? ' (sent ahead, applied then)' : ''}`, async () => {
      const { sessions, runtime, held, fsyncs } = await warmService({ sendsAhead });
      const [warm] = await sessions.warmPools();
      expect(warm).toMatchObject({ ready: 1 });
      fsyncs.hold = true;
      let answered = false;
      const starting = sessions.start('acc', { id: 'warm-1', location: 'local-a', image: 'echo', labels: { map: 'dust' } }).finally(() => (answered = true));
      await vi.waitFor(() => expect(runtime.handoffs).toHaveLength(1), { timeout: 5000, interval: 5 });
      const [handoff] = runtime.handoffs;
      expect(handoff!.allocation).toMatchObject({ id: 'warm-1', labels: { map: 'dust' } });
      // A kill -9 then: the restarted service finds the session running, and no free warm server to hand another.
      expect(handoff!.afterKill9.session).toMatchObject({ id: 'warm-1', status: 'running' });
      expect(handoff!.afterKill9.warm).toEqual([]);
      // The claim's fsync had not finished when the game server was told.
      expect(handoff!.heldFsyncs).toBeGreaterThan(0);
      if (sendsAhead) {
        // Sent while the claim's transaction ran: nothing of it was committed yet.
        expect(runtime.prepared).toHaveLength(1);
        expect(runtime.prepared[0]).toMatchObject({ allocation: handoff!.allocation, aborted: false });
        expect(await runtime.prepared[0]!.afterKill9).toMatchObject({ session: undefined, warm: [{ status: 'ready' }] });
      }
      // Not answered before its fsync.
      await new Promise((resolve) => setImmediate(resolve));
      expect(answered).toBe(false);
      fsyncs.hold = false;
      for (const release of held.splice(0)) release();
      const started = await starting;
      expect(started).toMatchObject({ ok: true, session: { id: 'warm-1', status: 'running' } });
    });
  }

  it('sent ahead by a claim that rolls back: aborted, never applied, and the warm server goes to the next start', async () => {
    const { sessions, store, runtime } = await warmService({ sendsAhead: true });
    // The claim's transaction fails after its claim (its session's insert): it rolls back whole.
    const insert = store.sessions.insert;
    store.sessions.insert = () => Promise.reject(new Error('insert failed'));
    await expect(sessions.start('acc', { id: 'warm-1', location: 'local-a', image: 'echo' })).rejects.toThrow(/insert failed/);
    store.sessions.insert = insert;
    expect(runtime.prepared).toMatchObject([{ allocation: { id: 'warm-1' }, aborted: true }]);
    expect(runtime.handoffs).toEqual([]);
    expect((await store.warmServers.all()).map((server) => server.status)).toEqual(['ready']);
    expect(await sessions.start('acc', { id: 'warm-2', location: 'local-a', image: 'echo' })).toMatchObject({ ok: true, session: { id: 'warm-2', status: 'running' } });
    expect(runtime.prepared).toMatchObject([{ aborted: true }, { allocation: { id: 'warm-2' }, aborted: false }]);
    expect(runtime.handoffs.map((handoff) => handoff.allocation.id)).toEqual(['warm-2']);
  });
});

describe('a start whose transaction committed but whose fsync failed', () => {
  // Answered with the error, so nothing of it may go on: its session ends start_failed (its
  // ports and its place under the account's cap free), and a warm one's game server stops.
  it('warm: ends the session start_failed and stops the game server it was handed to', async () => {
    const { sessions, store, runtime, fsyncs } = await warmService();
    fsyncs.fail = 1;
    await expect(sessions.start('acc', { id: 'warm-1', location: 'local-a', image: 'echo' })).rejects.toThrow(/EIO/);
    expect(runtime.handoffs).toHaveLength(1);
    const session = await store.sessions.findOwned('acc', 'warm-1');
    expect(session).toMatchObject({ status: 'dead', endReason: 'start_failed' });
    expect(runtime.stops).toEqual([session!.key]);
  });

  it('cold: ends the session start_failed, with its ports free', async () => {
    const { sessions, store, runtime, fsyncs } = await warmService();
    fsyncs.fail = 1;
    // Args of its own: no warm pool serves it.
    await expect(sessions.start('acc', { id: 'cold-1', location: 'local-a', image: 'echo', args: ['--cold'] })).rejects.toThrow(/EIO/);
    expect(runtime.handoffs).toHaveLength(0);
    expect(await store.sessions.findOwned('acc', 'cold-1')).toMatchObject({ status: 'dead', endReason: 'start_failed' });
    expect(await store.sessions.launchedAt('acc')).toEqual([]);
  });
});
