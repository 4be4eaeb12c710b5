/**
 * Labels, args and players count against a per-account storage budget: maximum-size sessions
 * are refused (403 QUOTA_EXCEEDED, details naming the budget) once the account's retained
 * sessions hold that much; another account is unaffected. So are joins of players past it (a
 * start/join/stop loop grew the store, and every `GET /session?all=true`, without limit); players
 * that leave, and retained sessions once purged, give their share back.
 */
import { describe, expect, it } from 'vitest';
import { PLAYER_RECORD_BYTES, storedBytes } from '../../server/domain/storage-budget.js';
import { eventually } from '../support/eventually.mjs';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

/** A maximum-size session: 64 labels and 64 args of 1,024 characters (about 130 KB). */
const big = (id: string) => ({
  id,
  location: 'local-a',
  image: 'echo',
  labels: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`label-${i}`, 'l'.repeat(1024)])),
  args: Array.from({ length: 64 }, () => 'a'.repeat(1024)),
});

describe('storage budget', () => {
  // 1 MiB: about eight maximum-size sessions.
  const service = useService({ runtime: 'simulated', storageBudgetMiB: 1 });

  it('refuses sessions past the budget, counting ended ones still retained', async () => {
    let started = 0;
    let refused: Awaited<ReturnType<typeof service.call>> | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const result = await service.call('POST', '/session', { body: big(`big-${i}`) });
      if (result.status === 201) {
        started++;
        await service.call('DELETE', `/session/big-${i}`);
      } else refused = result;
    }
    expect(started).toBeGreaterThanOrEqual(6);
    expect(started).toBeLessThanOrEqual(8);
    expectError(refused!, 403, 'QUOTA_EXCEEDED', '/session');
    expect(refused!.json.details).toMatch(/storage budget \(1048576 bytes\)/);
    expect(refused!.json.message).toBe('Storage budget exhausted');
    // Small sessions still fit; another account has its own budget.
    expect((await service.call('POST', '/session', { body: { id: 'small', location: 'local-a', image: 'echo' } })).status).toBe(201);
    const other = await service.running.service.onboard({ name: 'Other', quotaMinutes: 10, operator: false });
    expect((await service.call('POST', '/session', { token: other.token, body: big('other-big') })).status).toBe(201);
  });
});

describe('racing starts against the storage budget', () => {
  const service = useService({ runtime: 'simulated', storageBudgetMiB: 1 });

  it('stores no more than the budget holds, however many start at once', async () => {
    // Each checked the budget before any was charged: 30 racing starts stored 2.6 times it (outside check 9).
    const body = big('probe');
    const fit = Math.floor((1024 * 1024) / storedBytes(body.labels, body.args));
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => service.call('POST', '/session', { body: big(`race-${i}`) })));
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(fit);
    expect(statuses.filter((status) => status === 403)).toHaveLength(30 - fit);
    // The refused ones held nothing back: a small start still fits.
    expect((await service.call('POST', '/session', { body: { id: 'small', location: 'local-a', image: 'echo' } })).status).toBe(201);
  });
});

describe('players in the storage budget', () => {
  // The service's clock, moved past the retention at the end (its monotonic clock moves with it).
  let offsetMs = 0;
  const service = useService({ runtime: 'simulated', storageBudgetMiB: 1 }, { now: () => Date.now() + offsetMs });
  const BUDGET = 1024 * 1024;
  // 256 players of 128-character ids: 256 x (128 + 64) = 48 KiB a join, 192 KiB a full session.
  const players = (session: string, from: number) => Array.from({ length: 256 }, (_, i) => `${session}-${from + i}-`.padEnd(128, 'p'));
  const join = (session: string, from: number) => service.call('PUT', '/session/player/join', { body: { session, players: players(session, from) } });
  const JOIN_BYTES = 256 * (128 + PLAYER_RECORD_BYTES);
  const playersOf = async (id: string) => (await service.call('GET', `/session/${id}`)).json.players.joined as string[];

  it('refuses a join past the budget whole; players that leave and purged sessions give their bytes back', async () => {
    // Full sessions, started, filled and stopped (ended ones are retained, and so are their players).
    let joins = 0;
    let refused: { result: Awaited<ReturnType<typeof join>>; id: string; from: number } | undefined;
    const ids: string[] = [];
    for (let s = 0; s < 8 && !refused; s++) {
      const id = `full-${s}`;
      ids.push(id);
      expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
      for (let from = 0; from < 1024 && !refused; from += 256) {
        const result = await join(id, from);
        if (result.status === 403) {
          refused = { result, id, from };
        } else {
          expect([result.status, result.json.count]).toEqual([200, from + 256]);
          joins++;
        }
      }
      if (!refused) await service.call('DELETE', `/session/${id}`);
    }
    // Each session's `{}` and `[]` (4 bytes) and its joins: the one that would pass 1 MiB is refused.
    expect(joins).toBe(Math.floor((BUDGET - 4 * ids.length) / JOIN_BYTES));
    expectError(refused!.result, 403, 'QUOTA_EXCEEDED', '/session/player/join');
    expect(refused!.result.json.details).toMatch(/players .* storage budget \(1048576 bytes\); none of these joined/);
    const { id, from } = refused!;
    // Nothing of the refused join was recorded.
    expect((await playersOf(id)).sort()).toEqual(Array.from({ length: from / 256 }, (_, k) => players(id, k * 256)).flat().sort());
    // Players already joined cost nothing more: joining them again is not refused.
    expect((await service.call('PUT', '/session/player/join', { body: { session: id, players: players(id, 0).slice(0, 1) } })).status).toBe(200);

    // Players that leave give their bytes back: the refused join fits now, and nothing more.
    const left = await service.call('DELETE', '/session/player/leave', { body: { session: id, players: players(id, 0) } });
    expect([left.status, left.json.count]).toEqual([200, from - 256]);
    expect((await join(id, from)).status).toBe(200);
    expect((await join(id, from + 256)).status).toBe(403);

    // Ended sessions past the retention (a week) are purged, and their players no longer count.
    await service.call('DELETE', `/session/${id}`);
    for (const ended of ids) await waitForStatus(service.call, ended, ['exited', 'dead']);
    offsetMs += 8 * 24 * 60 * 60 * 1000;
    // On PostgreSQL, once this instance holds the retention role (a lease it takes at start).
    await eventually(
      async () => {
        await service.running.service.pruneRecords();
        return (await service.call('GET', `/session/${ids[0]}`)).status === 404;
      },
      { what: 'the ended sessions purged' },
    );
    expect((await service.call('POST', '/session', { body: { id: 'after-purge', location: 'local-a', image: 'echo' } })).status).toBe(201);
    for (let from = 0; from < 1024; from += 256) expect((await join('after-purge', from)).status).toBe(200);
  });
});
