/**
 * GET /events writes its replay and its snapshot at the client's pace: a client that takes
 * nothing leaves a stream holding about one event, not the account's whole replay (each event
 * is a whole session: up to ~200 KB), and it gets every event once it reads.
 */
import type { PassThrough } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Sessions } from '../../server/domain/sessions.js';
import type { StoredEvent } from '../../server/domain/ports/sessions.js';
import type { SessionChange } from '../../server/domain/session-machine.js';
import { localEventFeed, MAX_HELD_EVENTS } from '../../server/events/event-feed.js';
import { eventHandlers } from '../../server/http/events/event-handlers.js';
import { OpenStreams } from '../../server/http/open-streams.js';
import { session } from '../support/store-records.js';

const EVENTS = 200;
// A session as big as a request can make it: 64 labels of 1,024 characters (~66 KB an event).
const labels = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`l${i}`, 'x'.repeat(1024)]));
const records = Array.from({ length: EVENTS }, (_, i) => session(`s${i}`, { accountId: 'acc', labels }));
const log: StoredEvent[] = records.map((record, i) => ({ id: i + 1, status: 'running', previous: 'created', at: i, session: record }));

function streamEvents(lastEventId: string | undefined, changes: ((change: SessionChange) => void)[] = []) {
  const onChange = (listener: (change: SessionChange) => void) => {
    changes.push(listener);
    return () => {
      if (changes.includes(listener)) changes.splice(changes.indexOf(listener), 1);
    };
  };
  const sessions = { list: async () => [...records], onChange } as unknown as Sessions;
  const events = {
    eventsAfter: async (_account: string, afterId: number, limit: number) => log.filter((e) => e.id > afterId).slice(0, limit),
    oldestEventId: async () => 1,
    latestEventId: async () => EVENTS,
  };
  const open = new OpenStreams({ events: 5, logs: 5, artifacts: 5 }, async () => true);
  const handlers = eventHandlers(sessions, events, open, () => 0, localEventFeed(sessions), { warn() {}, error() {} });
  const principal = { accountId: 'acc', tokenId: 't', scopes: new Set(), expiresAt: null };
  const context = { principal, signal: new AbortController().signal } as never;
  return handlers.streamEvents({ headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId } } as never, context);
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await tick();
}

async function readAll(stream: PassThrough, frames: number): Promise<string[]> {
  const ids: string[] = [];
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    let end: number;
    while ((end = text.indexOf('\n\n')) !== -1) {
      const id = /^id: (\d+)$/m.exec(text.slice(0, end))?.[1];
      if (id) ids.push(id);
      text = text.slice(end + 2);
    }
    if (ids.length === frames) break;
  }
  return ids;
}

describe('GET /events at the client’s pace', () => {
  for (const [what, lastEventId, ids] of [
    ['a replay (Last-Event-ID)', '0', log.map((e) => String(e.id))],
    ['a snapshot', undefined, records.map(() => String(EVENTS))],
  ] as const) {
    it(`holds about one event of ${what} its client has not read, and sends all of it as the client reads`, async () => {
      const answer = await streamEvents(lastEventId);
      expect(answer.status).toBe(200);
      const stream = (answer as unknown as { body: PassThrough }).body;
      await settle();
      const total = log.length * JSON.stringify(records[0]).length;
      expect(total).toBeGreaterThan(10 * 1024 * 1024);
      // One event past the stream's high-water mark, not the ~13 MB of the whole replay.
      expect(stream.writableLength + stream.readableLength).toBeLessThan(256 * 1024);
      expect(await readAll(stream, ids.length)).toEqual(ids);
      stream.destroy();
    });
  }

  // Outside check oc3: new events wait behind a replay or snapshot until it is written, and a
  // client taking a few KB every 25 s keeps it from ever being cut as stalled; every event of the
  // account meanwhile was held, without bound.
  it(`closes a stream once more than ${MAX_HELD_EVENTS} new events wait behind its replay`, async () => {
    const changes: ((change: SessionChange) => void)[] = [];
    const answer = await streamEvents('0', changes);
    const stream = (answer as unknown as { body: PassThrough }).body;
    await settle();
    expect(changes).toHaveLength(1);
    for (let i = 1; i <= MAX_HELD_EVENTS; i++) changes[0]?.({ eventId: EVENTS + i, session: records[0]!, previous: 'created', at: i });
    expect(stream.destroyed).toBe(false);
    changes[0]?.({ eventId: EVENTS + MAX_HELD_EVENTS + 1, session: records[0]!, previous: 'created', at: 0 });
    expect(stream.destroyed).toBe(true);
    // Unsubscribed: nothing more is held for it.
    expect(changes).toHaveLength(0);
  });
});
