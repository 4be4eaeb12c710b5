/**
 * A pool whose game servers die soon after their start backs off, whether they got ready or not:
 * without it, each death relaunches at once (a reviewer counted 1,114 launches in a second for a
 * pool of 10). The clock the refill reads stands still here, so a backoff never runs out and
 * every launch past the pool's first fill is one the backoff failed to hold.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../server/domain/catalog.js';
import type { LaunchSpec } from '../../server/domain/ports/runtime.js';
import { WarmPools } from '../../server/domain/warm-pools.js';
import { WarmRefill } from '../../server/domain/warm-refill.js';
import { SimulatedRuntime } from '../../server/runtime/simulated-runtime.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { testFleet } from '../support/service.js';

const POOL = 4;
let closing: (() => void)[] = [];
afterEach(() => {
  for (const close of closing) close();
  closing = [];
});

function crashingPool(dieWhen: 'ready' | 'starting') {
  const db = openDatabase(':memory:');
  const store = createSqliteStore(db);
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
  const refill = new WarmRefill({
    pools: new WarmPools([{ location: 'local-a', image: 'echo', tag: 'latest', warm: POOL }], store.warmServers),
    servers: store.warmServers,
    sessions: store.sessions,
    runtime,
    catalog: new Catalog(testFleet(), { has: async () => false, register: async () => {}, all: async () => [] }),
    now: () => frozen,
    reporter: { failed: () => 'failure', recovered: () => {} },
  });
  closing.push(() => {
    refill.close();
    db.close();
  });
  return { refill, launches };
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
