/**
 * An instance that loses a node's lease lets the node's sessions go from its runtime's own list:
 * the lease is mostly lost because the store cannot be reached, and a release that read the store
 * first failed there and left the runtime watching containers the node's new holder adopts (two
 * instances stopping, restarting and ending the same sessions).
 */
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../server/domain/catalog.js';
import type { LaunchSpec } from '../../server/domain/ports/runtime.js';
import { Quota } from '../../server/domain/quota.js';
import { Sessions } from '../../server/domain/sessions.js';
import { SimulatedRuntime } from '../../server/runtime/simulated-runtime.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { testFleet } from '../support/service.js';

describe('releasing a node whose lease was lost', () => {
  it('stops watching its sessions, and only its, while the store cannot be reached', async () => {
    const db = openDatabase(':memory:');
    const store = createSqliteStore(db);
    const unreachable = () => Promise.reject(new Error('connect ECONNREFUSED (the database)'));
    // Every read the release could make fails, as with the database gone.
    const repository = { ...store.sessions, live: unreachable, liveKeysOn: unreachable, find: unreachable, list: unreachable };
    const runtime = new SimulatedRuntime({ readyMs: 60_000, stopMs: 60_000, now: Date.now });
    const now = Date.now;
    const sessions = new Sessions({
      repository,
      runtime,
      catalog: new Catalog(testFleet(), { has: async () => false, register: async () => {}, all: async () => [] }),
      quota: new Quota(
        { account: async () => undefined, addUsedSeconds: async () => {}, launchedAt: async () => [], accountsWithLiveSessions: async () => [] },
        { charge: false, terminate: false, graceMs: 0, tickMs: 60_000 },
        now,
      ),
      startRate: { take: async () => ({ ok: true }) },
      now,
      onError: () => {},
    });
    try {
      for (const [key, nodeId] of [['a1', 'n1'], ['a2', 'n1'], ['b1', 'n2']]) await runtime.start({ sessionId: key, nodeId } as LaunchSpec);

      await sessions.releaseNode('n1');

      expect(['a1', 'a2', 'b1'].map((key) => runtime.supervises(key))).toEqual([false, false, true]);
    } finally {
      await sessions.close();
      await runtime.close();
      db.close();
    }
  });
});
