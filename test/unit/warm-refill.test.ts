/**
 * The warm refill on its own, over a real SQLite store and the simulated runtime.
 *
 * A pool whose game servers die soon after their start backs off, whether they got ready or not:
 * without it, each death relaunches at once (a reviewer counted 1,114 launches in a second for a
 * pool of 10). The clock the refill reads stands still here, so a backoff never runs out and
 * every launch past the pool's first fill is one the backoff failed to hold.
 *
 * With several instances on one database, an instance adopts, hands over and retires only the
 * warm servers its runtime supervises: another instance's are its own to hand a session to.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Catalog } from '../../server/domain/catalog.js';
import type { AdoptSpec, LaunchSpec } from '../../server/domain/ports/runtime.js';
import type { WarmServer } from '../../server/domain/ports/warm-servers.js';
import { warmLaunchOf, WarmPools } from '../../server/domain/warm-pools.js';
import { WarmRefill } from '../../server/domain/warm-refill.js';
import { SimulatedRuntime } from '../../server/runtime/simulated-runtime.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { sessionsOver } from '../support/domain-sessions.js';
import { testFleet } from '../support/service.js';

const POOL = 4;
let closing: (() => void)[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const close of closing) close();
  closing = [];
});

/** A refill of one pool (of `warm` servers, run with `launch`) in local-a, over a fresh store (or `db`) and `runtime`. */
function refillOf(runtime: SimulatedRuntime, warm: number, now: () => number, launch: { env?: Record<string, string>; args?: string[] } = {}, db = openDatabase(':memory:')) {
  const store = createSqliteStore(db);
  const refill = new WarmRefill({
    pools: new WarmPools([{ location: 'local-a', image: 'echo', tag: 'latest', warm, ...launch }], store.warmServers),
    servers: store.warmServers,
    sessions: store.sessions,
    runtime,
    catalog: new Catalog(testFleet(), { has: async () => false, register: async () => {}, all: async () => [] }),
    now,
    reporter: { failed: () => 'failure', recovered: () => {} },
  });
  closing.push(() => {
    refill.close();
    db.close();
  });
  return { refill, store };
}

function crashingPool(dieWhen: 'ready' | 'starting') {
  const frozen = Date.now();
  const runtime = new SimulatedRuntime({ readyMs: 5, stopMs: 5, now: () => frozen });
  const launches: string[] = [];
  const start = runtime.start.bind(runtime);
  runtime.start = async (spec: LaunchSpec) => {
    launches.push(spec.sessionId);
    await start(spec);
    // Dies before it is ready: stopped in the same turn, it exits before its ready timer fires.
    if (dieWhen === 'starting') void runtime.stop(spec.sessionId);
  };
  // Dies right after it got ready.
  if (dieWhen === 'ready') runtime.onEvent((event) => event.type === 'running' && void runtime.stop(event.sessionId));
  return { ...refillOf(runtime, POOL, () => frozen), launches };
}

describe('a warm pool whose servers keep dying', () => {
  for (const dieWhen of ['ready', 'starting'] as const) {
    it(`backs off when they die once ${dieWhen}`, async () => {
      const { refill, launches } = crashingPool(dieWhen);
      await refill.start();
      // Many lifetimes of a server (5 ms to ready, 5 ms to exit) and a refill tick.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(launches).toHaveLength(POOL);
    });
  }
});

describe('warm servers of another instance on the same database', () => {
  it('are neither handed a session nor retired by this one', async () => {
    /** Adopts only what this instance launched: the others' supervisors run elsewhere. */
    class OneInstanceRuntime extends SimulatedRuntime {
      override async adopt(spec: AdoptSpec) {
        if (spec.sessionId === 'ours') await super.adopt(spec);
      }
    }
    const runtime = new OneInstanceRuntime({ readyMs: 5, stopMs: 5, now: Date.now });
    // A pool of none: every warm server of it is surplus, to retire.
    const { refill, store } = refillOf(runtime, 0, Date.now);
    // Launched with what the pool runs: only its size (none) retires it.
    const echo = testFleet().images.find((image) => image.name === 'echo')!;
    const launch = warmLaunchOf({ env: {}, args: [] }, echo.tags.latest!, new Catalog(testFleet(), { has: async () => false, register: async () => {}, all: async () => [] }).limits(echo));
    const server = (key: string): WarmServer => ({
      key, location: 'local-a', image: 'echo', tag: 'latest', nodeId: 'local-a-1', host: '127.0.0.1', ports: [], status: 'ready', created: Date.now(), launch,
    });
    await store.warmServers.insert(server('ours'));
    await store.warmServers.insert(server('theirs'));
    await refill.start();
    expect(refill.handOverable()).toEqual(['ours']);
    await vi.waitFor(async () => expect((await store.warmServers.all()).map((s) => s.key)).toEqual(['theirs']), { timeout: 5000, interval: 20 });
  });
});

describe('warm servers left by a previous run with another fleet file', () => {
  // A pool's env, args or tag edited between runs: the servers adopted still run the old ones, and
  // a start asking for the new ones must not be handed one (nor the new version of an image be
  // shadowed by the old one for as long as the adopted servers live).
  /** The previous run: a pool of one with MAP=dust, its server ready, then the refill closed (the server still running). */
  async function previousRun(runtime: SimulatedRuntime, db: ReturnType<typeof openDatabase>) {
    const before = refillOf(runtime, 1, Date.now, { env: { MAP: 'dust' } }, db);
    await before.refill.start();
    await vi.waitFor(async () => expect((await before.store.warmServers.all()).filter((s) => s.status === 'ready')).toHaveLength(1), { timeout: 5000, interval: 10 });
    const [old] = await before.store.warmServers.all();
    before.refill.close();
    return old!;
  }

  it('are retired, not handed a session, and the pool refilled with what it runs now', async () => {
    const runtime = new SimulatedRuntime({ readyMs: 5, stopMs: 5, now: Date.now });
    const db = openDatabase(':memory:');
    const launched: LaunchSpec[] = [];
    const start = runtime.start.bind(runtime);
    runtime.start = async (spec: LaunchSpec) => {
      launched.push(spec);
      await start(spec);
    };
    const old = await previousRun(runtime, db);
    // This run: the same pool, MAP=mirage (the same database, the old server still running).
    const after = refillOf(runtime, 1, Date.now, { env: { MAP: 'mirage' } }, db);
    await after.refill.start();
    expect(after.refill.handOverable()).not.toContain(old.key);
    await vi.waitFor(async () => expect((await after.store.warmServers.all()).filter((s) => s.status === 'ready')).toHaveLength(1), { timeout: 5000, interval: 10 });
    expect((await after.store.warmServers.all()).map((s) => s.key)).not.toContain(old.key);
    expect(launched.at(-1)!.env.MAP).toBe('mirage');
  });

  it('are kept when the pool runs what they run', async () => {
    const runtime = new SimulatedRuntime({ readyMs: 5, stopMs: 5, now: Date.now });
    const db = openDatabase(':memory:');
    const old = await previousRun(runtime, db);
    const after = refillOf(runtime, 1, Date.now, { env: { MAP: 'dust' } }, db);
    await after.refill.start();
    expect(after.refill.handOverable()).toEqual([old.key]);
  });
});

describe('claims and the refill', () => {
  it('refills only once claims pause, or at the latest half a second after the first claim it owes', async () => {
    // The refill's and the runtime's clocks are faked, so a loaded machine cannot stretch a pause
    // between claims; the store's commits still run on real turns (node:timers).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const runtime = new SimulatedRuntime({ readyMs: 5, stopMs: 5, now: Date.now });
    const launches: number[] = [];
    const start = runtime.start.bind(runtime);
    runtime.start = async (spec: LaunchSpec) => {
      launches.push(Date.now());
      await start(spec);
    };
    const { refill, store } = refillOf(runtime, POOL, Date.now);
    await refill.start();
    await vi.waitFor(async () => expect((await store.warmServers.all()).filter((s) => s.status === 'ready')).toHaveLength(POOL), { timeout: 5000, interval: 10 });
    const claimAll = async () => {
      for (const server of await store.warmServers.all()) {
        await store.sessions.transaction(() => store.warmServers.claim(server, ['local-a-1']));
        refill.claimed(server.key);
      }
    };
    /** Claims every 20 ms for `ms` (the pool's servers first, then others' keys), and the launches meanwhile. */
    const burst = async (ms: number) => {
      const from = Date.now();
      const before = launches.length;
      await claimAll();
      while (Date.now() - from < ms) {
        await vi.advanceTimersByTimeAsync(20);
        refill.claimed('another-start');
      }
      return launches.length - before;
    };
    // Claims that pause within half a second: nothing launched while they come, the pool refilled after.
    expect(await burst(300)).toBe(0);
    await vi.waitFor(() => expect(launches).toHaveLength(2 * POOL), { timeout: 5000, interval: 10 });
    await vi.waitFor(async () => expect((await store.warmServers.all()).filter((s) => s.status === 'ready')).toHaveLength(POOL), { timeout: 5000, interval: 10 });
    // Claims that never pause: refilled all the same, within about half a second of the first.
    const first = Date.now();
    expect(await burst(2000)).toBe(POOL);
    expect(launches.at(-POOL)! - first).toBeGreaterThanOrEqual(450);
  });
});

describe('nodes where warm game servers cannot run', () => {
  // Docker: an engine on another machine cannot mount the SDK socket a warm container waits on.
  it('get none; the pool fills where they can', async () => {
    const runtime = new SimulatedRuntime({ readyMs: 5, stopMs: 5, now: () => Date.now() });
    const nodesOf = (location: string) => testFleet().locations.find((l) => l.id === location)!.nodes.map((node) => node.id);
    const remote = new Set(nodesOf('local-a'));
    Object.assign(runtime, { canWarm: (nodeId: string) => !remote.has(nodeId) });
    const db = openDatabase(':memory:');
    const store = createSqliteStore(db);
    const refill = new WarmRefill({
      pools: new WarmPools(['local-a', 'local-b'].map((location) => ({ location, image: 'echo', tag: 'latest', warm: 2 })), store.warmServers),
      servers: store.warmServers,
      sessions: store.sessions,
      runtime,
      catalog: new Catalog(testFleet(), { has: async () => false, register: async () => {}, all: async () => [] }),
      now: () => Date.now(),
      reporter: { failed: () => 'failure', recovered: () => {} },
    });
    closing.push(() => {
      refill.close();
      db.close();
    });
    await refill.start();
    // The pass that filled local-b placed local-a's too, had it found room.
    await vi.waitFor(async () => expect((await store.warmServers.all()).filter((s) => s.status === 'ready')).toHaveLength(2), { timeout: 10_000, interval: 10 });
    expect((await store.warmServers.all()).map((server) => server.location)).toEqual(['local-b', 'local-b']);
  });

  it("leave a location of only such nodes without a pool: the panel's size for it is refused (another location's is kept)", async () => {
    const runtime = new SimulatedRuntime({ readyMs: 5, stopMs: 5, now: () => Date.now() });
    const remote = new Set(testFleet().locations.find((l) => l.id === 'local-a')!.nodes.map((node) => node.id));
    Object.assign(runtime, { canWarm: (nodeId: string) => !remote.has(nodeId) });
    const db = openDatabase(':memory:');
    const store = createSqliteStore(db);
    const sessions = sessionsOver(store, runtime, { warm: { pools: new WarmPools([], store.warmServers), servers: store.warmServers } });
    closing.push(() => {
      void sessions.close();
      db.close();
    });
    expect(await sessions.sizeWarmPool({ location: 'local-a', image: 'echo', tag: 'latest' }, 2)).toEqual({ ok: false, reason: 'unsupported' });
    expect(await store.warmServers.sizes()).toEqual([]);
    expect(await sessions.sizeWarmPool({ location: 'local-b', image: 'echo', tag: 'latest' }, 2)).toMatchObject({ ok: true, pool: { location: 'local-b', warm: 2 } });
  });
});
