/**
 * Warm servers in both stores: claims take ready ones only, oldest first, on the nodes asked
 * for; and racing claims are exact: every claim in its own transaction, 200 of them at once for
 * 200 warm servers, each server taken exactly once and no claim left empty-handed. On PostgreSQL
 * the claims race from two separate stores (two instances' pools): without `FOR UPDATE SKIP
 * LOCKED`, claims that picked the same row would wait, find it gone and come back with nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WarmServer } from '../../server/domain/ports/warm-servers.js';
import { openStore } from '../../server/store/open-store.js';
import type { Store } from '../../server/store/store.js';
import { createDatabase } from '../support/postgres.mjs';

const opened: Store[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const store of opened) await store.close().catch(() => {});
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh store of the kind, and a second one on the same database (PostgreSQL: another instance). */
async function freshStores(kind: 'sqlite' | 'postgres'): Promise<[Store, Store]> {
  const databaseUrl = kind === 'postgres' ? await createDatabase('warm') : undefined;
  const open = async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'warm-store-'));
    dirs.push(dataDir);
    const { store } = await openStore({ dataDir, databaseUrl });
    opened.push(store);
    return store;
  };
  const first = await open();
  // SQLite is one process's file: the second "instance" is the same store.
  return [first, kind === 'postgres' ? await open() : first];
}

const pool = { location: 'arena', image: 'echo', tag: 'latest' };
const server = (key: string, extra: Partial<WarmServer> = {}): WarmServer => ({
  ...pool,
  key,
  nodeId: 'n1',
  host: '127.0.0.1',
  ports: [{ name: 'game', type: 'udp', container: 7777, host: 20000 }],
  status: 'ready',
  created: 1000,
  launch: 'l',
  ...extra,
});

describe.each(['sqlite', 'postgres'] as const)('warm servers in the %s store', (kind) => {
  it('claims ready ones only, oldest first, on the nodes asked for; counts slots and ports until claimed', async () => {
    const [store] = await freshStores(kind);
    const warm = store.warmServers;
    await warm.insert(server('w-new', { created: 3000, ports: [{ name: 'game', type: 'udp', container: 7777, host: 20003 }] }));
    await warm.insert(server('w-old', { created: 1000, ports: [{ name: 'game', type: 'udp', container: 7777, host: 20001 }] }));
    await warm.insert(server('w-starting', { created: 500, status: 'starting' }));
    await warm.insert(server('w-other-node', { created: 10, nodeId: 'n2', host: '127.0.0.2' }));
    expect(await warm.countOn('n1')).toBe(3);
    expect([...(await warm.portsInUse('127.0.0.1'))].sort()).toEqual([20000, 20001, 20003]);

    const claim = () => store.sessions.transaction(() => warm.claim(pool, ['n1']));
    // An instance sharing the database claims only the warm servers it runs itself.
    expect(await store.sessions.transaction(() => warm.claim(pool, ['n1'], ['w-elsewhere']))).toBeUndefined();
    expect((await store.sessions.transaction(() => warm.claim(pool, ['n1'], ['w-new', 'w-elsewhere'])))?.key).toBe('w-new');
    await warm.insert(server('w-new', { created: 3000, ports: [{ name: 'game', type: 'udp', container: 7777, host: 20003 }] }));
    expect((await claim())?.key).toBe('w-old');
    expect((await claim())?.key).toBe('w-new');
    expect(await claim()).toBeUndefined();
    expect(await store.sessions.transaction(() => warm.claim({ ...pool, tag: 'other' }, ['n1', 'n2']))).toBeUndefined();
    expect(await warm.countOn('n1')).toBe(1);

    expect(await warm.markReady('w-starting')).toBe(true);
    expect(await warm.markReady('w-gone')).toBe(false);
    expect((await claim())?.ports).toEqual(server('x').ports);
    expect(await warm.remove('w-other-node')).toBe(true);
    expect(await warm.remove('w-other-node')).toBe(false);
    expect(await warm.all()).toEqual([]);

    await warm.setSize(pool, 4, 1);
    await warm.setSize(pool, 2, 2);
    expect(await warm.sizes()).toEqual([{ ...pool, warm: 2 }]);
  });

  it('gives each of 200 warm servers to exactly one of 200 racing claims', async () => {
    const [one, two] = await freshStores(kind);
    const COUNT = 200;
    for (let i = 0; i < COUNT; i++) await one.warmServers.insert(server(`w-${i}`, { created: 1000 + i }));
    const claims = await Promise.all(
      Array.from({ length: COUNT }, (_, i) => {
        const store = i % 2 === 0 ? one : two;
        // Each claim is a start's transaction: it holds what it took until it commits.
        return store.sessions.transaction(async () => {
          const taken = await store.warmServers.claim(pool, ['n1']);
          await new Promise((resolve) => setImmediate(resolve));
          return taken?.key;
        });
      }),
    );
    expect(claims.filter((key) => key === undefined)).toHaveLength(0);
    expect(new Set(claims).size).toBe(COUNT);
    expect(await one.warmServers.all()).toEqual([]);
  });
});
