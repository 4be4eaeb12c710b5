/**
 * Three instances on one PostgreSQL, started as deployed (test/support/cluster/deployment.ts):
 * exact placement under starts racing through every instance, and a token revoked through one
 * instance refused by the others before the verdicts they cached could have aged out (the bus
 * told them). Bounded by what must happen, with generous caps: CI runs them on 2 busy cores,
 * where 500 starts took longer than 30 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { eventually } from '../support/eventually.mjs';
import { caller } from '../support/http.js';
import { testFleet } from '../support/service.js';
import { SHARED_VERDICT_MAX_AGE_MS } from '../../server/service.js';
import { startDeployment, type Deployment } from '../support/cluster/deployment.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';

const SLOTS = 100;
const STARTS = 500;
/**
 * Starts in flight at once: more than the instances' pools run (3 x 10 connections), so every
 * instance's transactions race each other and the other instances' all along; not all 500, which
 * on 2 busy cores (load 21) queued past the pools' 25 s wait for a connection: 68 of them were
 * answered 500, and only 97 slots were given.
 */
const IN_FLIGHT = 60;

/** `run` over `items`, at most `limit` at a time, in order; the results in the items' order. */
async function atMost<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, lane));
  return results;
}

/** Two nodes of 50 slots, each with exactly the 100 ports its 50 echo sessions need (two each). */
function hundredSlots() {
  return testFleet((fleet) => {
    const base = 20000 + Math.floor(Math.random() * 40) * 250;
    fleet.locations = [
      {
        id: 'arena',
        ips: ['127.0.0.1'],
        nodes: [
          { id: 'arena-1', host: '127.0.0.1', ports: { from: base, to: base + 99 }, capacity: SLOTS / 2, locked: false },
          { id: 'arena-2', host: '127.0.0.2', ports: { from: base, to: base + 99 }, capacity: SLOTS / 2, locked: false },
        ],
      },
    ];
  });
}

const missing = clusterTestsMissing();
describe.skipIf(missing)(`three instances on one PostgreSQL${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const contract = contractFetch();
  let deployment: Deployment;
  /** A contract-checked caller per instance, straight to it (not through HAProxy). */
  let direct: ReturnType<typeof caller>[];

  beforeAll(async () => {
    deployment = await startDeployment({
      instances: 3,
      fleet: hundredSlots(),
      env: { RUNTIME: 'simulated', START_RATE_PER_SECOND: '10000', START_BURST: '10000', SIMULATED_READY_MS: '50', SIMULATED_STOP_MS: '30' },
    });
    direct = deployment.instances.map((instance) => caller(instance.url, deployment.token, contract));
  });
  afterAll(async () => {
    await deployment?.stop();
    expect(contract.violations).toEqual([]);
  });

  // Bounded by their outcome, with a generous cap: they took 35-77 s at load 17-21 on 2 cores.
  it(`gives exactly ${SLOTS} 201s to ${STARTS} starts racing through three instances, no id or port twice`, { timeout: 300_000 }, async () => {
    // 250 ids, each asked for twice in a row through different instances (so the two asks race): one id is never placed twice.
    const asks = Array.from({ length: STARTS }, (_, i) => ({ id: `race-${Math.floor(i / 2)}`, via: direct[i % 3]! }));
    const results = await atMost(asks, IN_FLIGHT, ({ id, via }) => via('POST', '/session', { body: { id, location: 'arena', image: 'echo' } }));
    const statuses = results.map((r) => r.status);
    expect(results.filter((r) => r.status !== 201 && r.status !== 420 && r.status !== 409).map((r) => `${r.status} ${JSON.stringify(r.json)}`)).toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(SLOTS);
    const started = results.filter((r) => r.status === 201).map((r) => r.json);
    expect(new Set(started.map((s) => s.id)).size).toBe(SLOTS);
    const endpoints = started.flatMap((s) => s.ports.map((p: { host: number }) => `${s.host}:${p.host}`));
    expect(new Set(endpoints).size).toBe(endpoints.length);
    // Every instance sees the same truth.
    for (const call of direct) {
      const location = (await call('GET', '/location')).json.locations[0];
      expect(location.capacity).toEqual({ total: SLOTS, used: SLOTS, free: 0 });
    }
  });

  it('refuses a token revoked through one instance on the others before their cached verdicts age out', async () => {
    const [a, b, c] = direct as [typeof direct[0], typeof direct[0], typeof direct[0]];
    const minted = await a('POST', '/token', { body: { name: 'revoke-me', scopes: ['session:read'] } });
    expect(minted.status).toBe(201);
    expect((await a('GET', '/session', { token: minted.json.token })).status).toBe(200);
    // Used (and so cached as valid) on the other instances, no earlier than this: without the bus
    // each would accept it until its cached verdict is SHARED_VERDICT_MAX_AGE_MS old.
    const cachedFrom = performance.now();
    for (const call of [b, c]) expect((await call('GET', '/session', { token: minted.json.token })).status).toBe(200);
    expect((await a('DELETE', `/token/${minted.json.id}`)).status).toBe(204);
    for (const call of [b, c]) {
      await eventually(async () => (await call('GET', '/session', { token: minted.json.token })).status, { until: (s) => s === 401, timeoutMs: 30_000, intervalMs: 10 });
    }
    // The bound is the product's own (the cap), not a speed: refused sooner, only the bus can have told them.
    expect(performance.now() - cachedFrom).toBeLessThan(SHARED_VERDICT_MAX_AGE_MS);
  });
});
