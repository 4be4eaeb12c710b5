import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testFleet, useService } from '../support/service.js';
import { waitForNoLiveSessions } from '../support/sessions.js';

const CAPACITY = 8;

describe('placement under concurrent starts', () => {
  const service = useService(
      { runtime: 'simulated' },
      {
        fleet: testFleet((fleet) => {
          // Two nodes of 4 slots and only 10 ports each: capacity and ports both bind.
          fleet.locations = [
            {
              id: 'arena',
              ips: ['127.0.0.1'],
              nodes: [
                { id: 'arena-1', host: '127.0.0.1', ports: { from: 29700, to: 29709 }, capacity: 4, locked: false },
                { id: 'arena-2', host: '127.0.0.1', ports: { from: 29710, to: 29719 }, capacity: 4, locked: false },
              ],
            },
          ];
        }),
      },
    );

  it(`gives exactly ${CAPACITY} starts and the rest 420 when ${CAPACITY * 4} race for ${CAPACITY} slots`, async () => {
    const results = await Promise.all(
      Array.from({ length: CAPACITY * 4 }, (_, i) =>
        service.call('POST', '/session', { body: { id: `race-${i}`, location: 'arena', image: 'echo' } }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(CAPACITY);
    expect(statuses.filter((s) => s === 420)).toHaveLength(CAPACITY * 3);
    expect(results.filter((r) => r.status === 420).every((r) => r.json.details === 'full')).toBe(true);

    // No port is handed out twice, and each node holds at most its capacity.
    const started = results.filter((r) => r.status === 201).map((r) => r.json);
    const ports = started.flatMap((s) => s.ports.map((p: { host: number }) => p.host));
    expect(new Set(ports).size).toBe(ports.length);
    const location = (await service.call('GET', '/location')).json.locations[0];
    expect(location.capacity).toEqual({ total: 8, used: 8, free: 0 });
    expect(location.nodes.map((n: { used: number }) => n.used)).toEqual([4, 4]);

    // Stopping frees exactly what was held.
    await Promise.all(started.map((s) => service.call('DELETE', `/session/${s.id}`)));
    await waitForNoLiveSessions(service.call);
    expect((await service.call('GET', '/location')).json.locations[0].capacity).toEqual({ total: 8, used: 0, free: 8 });
  });

  it('gives exactly one 201 and 409s when many starts race with one id', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => service.call('POST', '/session', { body: { id: 'same-id', location: 'arena', image: 'echo' } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(409)]);
    await service.call('DELETE', '/session/same-id');
  });
});
