import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

describe('listing sessions with filters and paging', () => {
  let clock = Date.parse('2026-11-22T10:00:00.000Z');
  const ids = (result: { json: { sessions: { id: string }[] } }) => result.json.sessions.map((s) => s.id);
  const service = useService({ runtime: 'simulated' }, { now: () => clock });

  beforeAll(async () => {
    const start = async (id: string, location: string, labels: Record<string, string>) => {
      clock += 1000;
      expect((await service.call('POST', '/session', { body: { id, location, image: 'echo', labels } })).status).toBe(201);
    };
    await start('a1', 'local-a', { mode: 'ranked', map: 'dust' });
    await start('a2', 'local-a', { mode: 'casual', map: 'dust' });
    await start('b1', 'local-b', { mode: 'ranked', map: 'nuke' });
    await start('b2', 'local-b', { mode: 'ranked' });
    await start('gone', 'local-a', { mode: 'ranked' });
    await waitForStatus(service.call, 'gone', ['running']);
    await service.call('DELETE', '/session/gone');
    await waitForStatus(service.call, 'gone', ['exited']);
    await service.call('PUT', '/session/player/join', { body: { session: 'a1', players: ['p1', 'p2', 'p3'] } });
    await service.call('PUT', '/session/player/join', { body: { session: 'b1', players: ['p4'] } });
  });

  it('lists live sessions newest first, and ended ones with all=true', async () => {
    expect(ids(await service.call('GET', '/session'))).toEqual(['b2', 'b1', 'a2', 'a1']);
    expect(ids(await service.call('GET', '/session?all=true'))).toEqual(['gone', 'b2', 'b1', 'a2', 'a1']);
  });

  it('filters by location, image, tag, host and status', async () => {
    expect(ids(await service.call('GET', '/session?location=local-b'))).toEqual(['b2', 'b1']);
    expect(ids(await service.call('GET', '/session?image=echo&tag=latest&host=127.0.0.1'))).toHaveLength(4);
    expect(ids(await service.call('GET', '/session?tag=v2'))).toEqual([]);
    expect(ids(await service.call('GET', '/session?status=exited&all=true'))).toEqual(['gone']);
  });

  it('filters by labels that must all match, and by labels that must not', async () => {
    expect(ids(await service.call('GET', '/session?filter[mode]=ranked'))).toEqual(['b2', 'b1', 'a1']);
    expect(ids(await service.call('GET', '/session?filter[mode]=ranked&filter[map]=dust'))).toEqual(['a1']);
    expect(ids(await service.call('GET', '/session?filterNot[map]=dust'))).toEqual(['b2', 'b1']);
    expect(ids(await service.call('GET', '/session?filter[mode]=ranked&filterNot[map]=nuke'))).toEqual(['b2', 'a1']);
    // Ended sessions too: the database answers, with the label filters as parameters.
    expect(ids(await service.call('GET', '/session?all=true&filter[mode]=ranked&filterNot[map]=nuke'))).toEqual(['gone', 'b2', 'a1']);
    expect(ids(await service.call('GET', '/session?all=true&filter[mode]=ranked&filter[map]=dust&limit=5'))).toEqual(['a1']);
  });

  it('filters by player count', async () => {
    expect(ids(await service.call('GET', '/session?playerCount[gt]=0'))).toEqual(['b1', 'a1']);
    expect(ids(await service.call('GET', '/session?playerCount[lt]=1'))).toEqual(['b2', 'a2']);
    expect(ids(await service.call('GET', '/session?playerCount[gt]=0&playerCount[lt]=3'))).toEqual(['b1']);
  });

  it('pages with limit and cursor, seeing every session once', async () => {
    const first = await service.call('GET', '/session?limit=3');
    expect(ids(first)).toEqual(['b2', 'b1', 'a2']);
    expect(first.json.next_cursor).toEqual(expect.any(String));
    const second = await service.call('GET', `/session?limit=3&cursor=${first.json.next_cursor}`);
    expect(ids(second)).toEqual(['a1']);
    expect(second.json.next_cursor).toBeNull();
    const exact = await service.call('GET', '/session?limit=4');
    expect(exact.json.next_cursor).toBeNull();
  });
});
