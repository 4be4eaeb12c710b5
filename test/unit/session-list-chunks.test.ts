/**
 * A session list too large for the scratch buffer (`GET /session?all=true` of an account's every
 * retained session with its players) is written in chunks as the client takes them, the event loop
 * turning between chunks, so it stalls no other request; the chunks are byte for byte what
 * fast-json-stringify makes of the list.
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { schemas } from '../../generated/routes.js';
import { MAX_SCRATCH_BYTES, ScratchBuffer, type ScratchSerializer } from '../../server/http/scratch-reply.js';
import { buildSerializer } from '../../server/http/serializers.js';
import { buildSessionBody } from '../../server/http/session-view.js';
import { session } from '../support/store-records.js';

const external = Object.fromEntries(schemas.map((schema) => [schema.$id, schema]));
const route = { schema: { $ref: 'SessionList#' }, method: 'GET', url: '/session', httpStatus: '200' };
const keptList = buildSerializer(external)(route) as unknown as ScratchSerializer<object>;
const freshList = SerializerSelector()(external)(route);

// 100 ended sessions of 1,024 players of 128 characters (outside check 7, finding 7): 13 MB.
const players = (i: number) => Array.from({ length: 1024 }, (_, j) => `${i}-${j}-`.padEnd(128, 'z'));
const list = {
  sessions: Array.from({ length: 100 }, (_, i) => buildSessionBody(session(`s${i}`, { players: players(i), status: 'exited', ended: 5000 }))),
  next_cursor: null,
};

describe('a session list larger than the scratch buffer', () => {
  it('is not written into the scratch buffer but in chunks, the event loop turning between them', async () => {
    expect(keptList.into(list, new ScratchBuffer())).toBeUndefined();
    let turns = 0;
    let turning = true;
    const turn = () => {
      turns++;
      if (turning) setImmediate(turn);
    };
    setImmediate(turn);
    const chunks: string[] = [];
    const turnsBefore: number[] = [];
    for await (const chunk of keptList.chunks(list)) {
      turnsBefore.push(turns);
      chunks.push(chunk);
    }
    turning = false;
    const json = chunks.join('');
    expect(json.length).toBeGreaterThan(50 * MAX_SCRATCH_BYTES);
    expect(json).toBe(freshList(list));
    // Many chunks, none far over 64 KiB, and the loop turned before each after the first.
    expect(chunks.length).toBeGreaterThan(100);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(64 * 1024 + 140_000);
    for (let i = 1; i < turnsBefore.length; i++) expect(turnsBefore[i]).toBeGreaterThan(turnsBefore[i - 1]!);
  });
});
