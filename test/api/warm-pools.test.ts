/**
 * Warm pools on the simulated runtime: racing starts into a pool are exact (no warm server taken
 * twice, no start lost), the pool refills after a claim, warm servers count against node
 * capacity, locked and draining nodes are not refilled (their warm servers retire), and a start
 * whose env or args differ from the pool's is served cold (labels are free).
 */
import { describe, expect, it, vi } from 'vitest';
import type { WarmServer } from '../../server/domain/ports/warm-servers.js';
import { TEST_ADMIN, testFleet, useService } from '../support/service.js';

const RACERS = 500;
const POOL = 100;

describe('warm pools', { timeout: 120_000 }, () => {
  const service = useService(
    { runtime: 'simulated', startRate: { perSecond: 10_000, burst: 10_000, burstWindowSeconds: 1 } },
    {
      fleet: testFleet((fleet) => {
        fleet.locations.push(
          { id: 'arena', ips: ['127.0.0.1'], nodes: [{ id: 'arena-1', host: '127.0.0.10', ports: { from: 40000, to: 41999 }, capacity: 700, locked: false }] },
          { id: 'small', ips: ['127.0.0.1'], nodes: [{ id: 'small-1', host: '127.0.0.11', ports: { from: 40000, to: 40099 }, capacity: 3, locked: false }] },
          { id: 'maint', ips: ['127.0.0.1'], nodes: [{ id: 'maint-1', host: '127.0.0.12', ports: { from: 40000, to: 40099 }, capacity: 8, locked: false }] },
          { id: 'snug', ips: ['127.0.0.1'], nodes: [{ id: 'snug-1', host: '127.0.0.13', ports: { from: 40000, to: 40099 }, capacity: 2, locked: false }] },
        );
        fleet.pools = [
          { location: 'arena', image: 'echo', tag: 'latest', warm: POOL },
          { location: 'small', image: 'echo', tag: 'latest', warm: 2, env: { MAP: 'dust' }, args: ['--fast'] },
          { location: 'maint', image: 'echo', tag: 'latest', warm: 3 },
          { location: 'snug', image: 'echo', tag: 'latest', warm: 2 },
        ];
      }),
    },
  );
  const store = () => service.running.service.store;
  const warmIn = async (location: string, status?: WarmServer['status']) =>
    (await store().warmServers.all()).filter((server) => server.location === location && (status === undefined || server.status === status));
  const filled = (location: string, size: number) =>
    vi.waitFor(async () => expect(await warmIn(location, 'ready')).toHaveLength(size), { timeout: 60_000, interval: 50 });
  const start = (body: object) => service.call('POST', '/session', { body });

  it(`gives ${RACERS} racing starts ${RACERS} sessions, no warm server twice`, async () => {
    await filled('arena', POOL);
    const pooled = new Set((await warmIn('arena')).map((server) => server.key));
    const results = await Promise.all(Array.from({ length: RACERS }, (_, i) => start({ id: `race-${i}`, location: 'arena', image: 'echo' })));
    expect(results.map((r) => r.status)).toEqual(Array(RACERS).fill(201));
    const live = (await store().sessions.live()).filter((session) => session.location === 'arena');
    expect(live).toHaveLength(RACERS);
    // Warm ones answered running, and each is a distinct warm server the pool had (or refilled).
    const warm = results.filter((r) => r.json.status === 'running');
    expect(warm.length).toBeGreaterThanOrEqual(POOL);
    const keys = live.map((session) => session.key);
    expect(new Set(keys).size).toBe(RACERS);
    expect(keys.filter((key) => pooled.has(key))).toHaveLength(POOL);
    // No session is still a warm server, and no two hold a port.
    const stillWarm = new Set((await store().warmServers.all()).map((server) => server.key));
    expect(keys.filter((key) => stillWarm.has(key))).toEqual([]);
    const ports = [...live.flatMap((s) => s.ports.map((p) => p.host)), ...(await warmIn('arena')).flatMap((s) => s.ports.map((p) => p.host))];
    expect(new Set(ports).size).toBe(ports.length);
    await Promise.all(results.map((r) => service.call('DELETE', `/session/${r.json.id}`)));
    // All sent at once, the race being the point: bounded by their outcome (26 s at load 21 on 2 cores), not a speed.
  }, 300_000);

  it('answers a warm start running with its ports, and refills the pool after the claim', async () => {
    await filled('maint', 3);
    const before = new Set((await warmIn('maint')).map((server) => server.key));
    const started = await start({ id: 'warm-one', location: 'maint', image: 'echo', labels: { mode: 'ranked' } });
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({ status: 'running', labels: { mode: 'ranked' } });
    expect(started.json.ports).toHaveLength(2);
    const read = (await service.call('GET', '/session/warm-one')).json;
    expect([read.status, read.started]).toEqual(['running', read.created]);
    const key = (await store().sessions.live()).find((session) => session.id === 'warm-one')!.key;
    expect(before.has(key)).toBe(true);
    await filled('maint', 3);
    expect((await warmIn('maint')).map((server) => server.key)).not.toContain(key);
    await service.call('DELETE', '/session/warm-one');
  });

  it('serves a start cold when its env or args differ from the pool’s; labels are free', async () => {
    await filled('small', 2);
    const cold = await start({ id: 'cold-env', location: 'small', image: 'echo', env: { MAP: 'nuke' }, args: ['--fast'] });
    expect(cold.status).toBe(201);
    expect(cold.json.status).toBe('created');
    const coldArgs = await start({ id: 'cold-args', location: 'small', image: 'echo', env: { MAP: 'dust' } });
    // The node holds 3: two warm servers and the first cold session.
    expect(coldArgs.status).toBe(420);
    expect(coldArgs.json.details).toBe('full');
    expect(await warmIn('small')).toHaveLength(2);
    // What a client is told agrees: the warm servers hold the node's other slots, and a start of
    // the image as available-location asks it (no env, no args) would be cold here.
    const small = (await service.call('GET', '/location')).json.locations.find((l: { id: string }) => l.id === 'small');
    expect(small).toMatchObject({ status: 'full', capacity: { total: 3, used: 3, free: 0 }, nodes: [{ id: 'small-1', used: 3, drain: 'none' }] });
    expect((await service.call('GET', '/available-location/echo')).json.locations.map((l: { id: string }) => l.id)).not.toContain('small');
    const warm = await start({ id: 'warm-labels', location: 'small', image: 'echo', env: { MAP: 'dust' }, args: ['--fast'], labels: { any: 'thing' } });
    expect(warm.json.status).toBe('running');
    for (const id of ['cold-env', 'warm-labels']) await service.call('DELETE', `/session/${id}`);
  });

  it('lists a location full of warm servers as available to the starts its pool serves', async () => {
    await filled('snug', 2);
    const snug = (await service.call('GET', '/location')).json.locations.find((l: { id: string }) => l.id === 'snug');
    expect(snug).toMatchObject({ status: 'full', capacity: { total: 2, used: 2, free: 0 } });
    expect((await service.call('GET', '/available-location/echo')).json.locations.map((l: { id: string }) => l.id)).toContain('snug');
    const warm = await start({ id: 'snug-warm', location: 'snug', image: 'echo' });
    expect(warm.json.status).toBe('running');
    await service.call('DELETE', '/session/snug-warm');
  });

  /**
   * Returns once a refill pass has run after the call: a start claims a warm server of the
   * arena, and the pass that replaces it (every pool is seen by each pass) comes after it.
   */
  const aRefillPassLater = async (id: string) => {
    await filled('arena', POOL);
    expect((await start({ id, location: 'arena', image: 'echo' })).json.status).toBe('running');
    await filled('arena', POOL);
    await service.call('DELETE', `/session/${id}`);
  };

  it('retires the warm servers of a locked or draining node and refills it only once it is open again', async () => {
    const { nodeLocks } = store();
    const closings = [
      (closed: boolean) => nodeLocks.set('maint-1', closed, Date.now()),
      (closed: boolean) => nodeLocks.setDrain('maint-1', closed, Date.now()),
    ];
    for (const [i, close] of closings.entries()) {
      await filled('maint', 3);
      await close(true);
      await vi.waitFor(async () => expect(await warmIn('maint')).toHaveLength(0), { timeout: 10_000, interval: 50 });
      // A refill pass after that, and still none (not even starting).
      await aRefillPassLater(`maint-pass-${i}`);
      expect(await warmIn('maint')).toHaveLength(0);
      await close(false);
    }
    await filled('maint', 3);
  });

  it('lists and sizes pools in the admin API; a pool shrinks when its size is lowered', async () => {
    await filled('maint', 3);
    const signedIn = await service.call('POST', '/admin/api/auth', { token: null, body: TEST_ADMIN });
    const headers = { Cookie: signedIn.headers.get('set-cookie')!.split(';')[0]!, 'X-CSRF-Token': signedIn.json.csrf_token };
    const panel = (method: string, body?: object) => service.call(method, '/admin/api/pool', { token: null, headers, ...(body ? { body } : {}) });
    const listed = await panel('GET');
    expect(listed.json.pools.find((pool: { location: string }) => pool.location === 'maint')).toEqual({
      location: 'maint', image: 'echo', tag: 'latest', warm: 3, source: 'fleet', ready: 3, starting: 0, env: {}, args: [],
    });
    const sized = await panel('PUT', { location: 'maint', image: 'echo', tag: 'latest', warm: 1 });
    expect(sized.json).toMatchObject({ warm: 1, source: 'panel' });
    await vi.waitFor(async () => expect(await warmIn('maint')).toHaveLength(1), { timeout: 10_000, interval: 50 });
    expect((await panel('PUT', { location: 'maint', image: 'echo', tag: 'v9', warm: 1 })).status).toBe(404);
    expect((await panel('PUT', { location: 'maint', image: 'echo', tag: 'latest', warm: -1 })).status).toBe(422);
    await panel('PUT', { location: 'maint', image: 'echo', tag: 'latest', warm: 3 });
    await filled('maint', 3);
  });
});
