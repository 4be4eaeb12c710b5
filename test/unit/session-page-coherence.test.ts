/**
 * The kept JSON of sessions (serializers.ts, session-view.ts) and the scratch buffer a page is
 * written into (scratch-reply.ts) stay coherent with the store: after every way a stored session
 * can change (each column a change may set, players joining and leaving, the read model reloaded
 * after a rollback, the session ending), the live page (as `GET /session` writes it, from the
 * scratch buffer, and as a string) and the single session (as `GET /session/{id}` writes it) are
 * byte for byte what fast-json-stringify makes of the rows the database returns. The caches are
 * warmed before each change, so a cache keyed by anything but the record it was made from, or a
 * record changed in place, fails here.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { describe, expect, it } from 'vitest';
import { schemas } from '../../generated/routes.js';
import type { SessionChanges, SessionFilter, SessionRecord } from '../../server/domain/ports/sessions.js';
import { ScratchBuffer, type ScratchSerializer } from '../../server/http/scratch-reply.js';
import { buildSerializer } from '../../server/http/serializers.js';
import { buildSessionBody, sessionBody } from '../../server/http/session-view.js';
import { createAccountRepository } from '../../server/store/account-repository.js';
import { createSessionRepository } from '../../server/store/session-repository.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { account, session } from '../support/store-records.js';

const external = Object.fromEntries(schemas.map((schema) => [schema.$id, schema]));
const route = (ref: string) => ({ schema: { $ref: ref }, method: 'GET', url: '/session', httpStatus: '200' });
const keptList = buildSerializer(external)(route('SessionList#')) as unknown as ScratchSerializer<object>;
const keptSession = buildSerializer(external)(route('Session#'));
const freshList = SerializerSelector()(external)(route('SessionList#'));
const freshSession = SerializerSelector()(external)(route('Session#'));

/** Every column a change may set, each to a value it does not have yet (a new column fails to compile here until it is added). */
const CHANGES: { [K in keyof Required<SessionChanges>]: Pick<Required<SessionChanges>, K> } = {
  status: { status: 'running' },
  runningSince: { runningSince: 2500 },
  pendingEndReason: { pendingEndReason: 'stopped' },
  exitCode: { exitCode: 3 },
  endReason: { endReason: 'crashed' },
  ended: { ended: 9000 },
};

describe('kept session JSON and the page buffer after every change of a session', () => {
  it('are what a fresh serialization of the stored rows makes, for the page and for the session', async () => {
    const db = openDatabase(':memory:');
    createAccountRepository(db).insert(account('acc'));
    const sessions = createSessionRepository(db);
    const records = [
      session('older', { created: 1000, ports: [{ name: 'game', type: 'udp', container: 7777, host: 20001 }] }),
      session('changing', { created: 2000, labels: { mode: 'ctf', emoji: '🎮' } }),
      session('newer', { created: 3000, ports: [] }),
    ];
    for (const record of records) await sessions.insert(record);
    const scratch = new ScratchBuffer();
    const live: SessionFilter = { accountId: 'acc', all: false, labels: {}, notLabels: {}, limit: 100 };
    const stored = async () => (await sessions.list({ ...live, all: true })).filter((s) => s.ended === null);

    const check = async (change: string) => {
      const page = { sessions: (await sessions.list(live)).map(sessionBody), next_cursor: null };
      const fromDb = { sessions: (await stored()).map(buildSessionBody), next_cursor: null };
      const expected = freshList(fromDb);
      expect(keptList.into(page, scratch)!.toString('utf8'), change).toBe(expected);
      expect(keptList(page), change).toBe(expected);
      const changing: SessionRecord | undefined = await sessions.find('key-changing');
      const dbChanging = (await sessions.list({ ...live, all: true })).find((s) => s.id === 'changing')!;
      if (changing) expect(keptSession(sessionBody(changing)), change).toBe(freshSession(buildSessionBody(dbChanging)));
    };

    await check('as inserted');
    for (const [column, change] of Object.entries(CHANGES)) {
      if (column === 'ended') continue;
      await sessions.update('key-changing', change);
      await check(column);
    }
    await sessions.join('key-changing', ['p1', 'p2'], 4000);
    await check('players joined');
    await sessions.leave('key-changing', ['p1']);
    await check('a player left');
    sessions.reload();
    await check('the read model reloaded (a rollback)');
    await sessions.update('key-changing', CHANGES.ended);
    await check('ended');
    expect((await sessions.list(live)).map((s) => s.id)).toEqual(['newer', 'older']);
  });
});
