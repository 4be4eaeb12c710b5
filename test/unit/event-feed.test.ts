/**
 * The event feed of several instances: reads the log after the last id sent whenever poked, so
 * however the pokes fall (many at once, during a read, before any event), each event reaches a
 * stream once, in order; a failed read is reported and the next poke carries on from there.
 */
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../server/domain/ports/sessions.js';
import { StoreEventFeed } from '../../server/events/event-feed.js';
import { eventually } from '../support/eventually.mjs';

function eventLog() {
  const events: StoredEvent[] = [];
  let failNext = false;
  /** Reads answered so far (failed ones too). */
  let reads = 0;
  return {
    reads: () => reads,
    add(accountId: string) {
      const id = events.length + 1;
      events.push({ id, status: 'running', previous: 'created', at: id, session: { accountId } as StoredEvent['session'] });
      return id;
    },
    failNextRead: () => (failNext = true),
    // Answers later, as a database does: pokes arrive while a read is under way.
    async eventsAfter(accountId: string, afterId: number, limit: number) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      reads++;
      if (failNext) {
        failNext = false;
        throw new Error('connection lost');
      }
      return events.filter((e) => e.session.accountId === accountId && e.id > afterId).slice(0, limit);
    },
  };
}

describe('StoreEventFeed', () => {
  it('delivers each of the account’s events once, in order, however often and whenever it is poked', async () => {
    const log = eventLog();
    const feed = new StoreEventFeed(log, (error) => {
      throw error;
    });
    log.add('acc-1');
    const seen: number[] = [];
    const following = feed.follow('acc-1', (event) => seen.push(event.id));
    following.start(0);
    for (let i = 0; i < 600; i++) {
      log.add(i % 3 === 0 ? 'acc-2' : 'acc-1');
      if (i % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
      feed.poke('acc-1');
      feed.poke('acc-2');
    }
    const expected = (await log.eventsAfter('acc-1', 0, 10_000)).map((e) => e.id);
    await eventually(() => seen.length === expected.length, { what: 'every event of the account' });
    expect(seen).toEqual(expected);
    following.stop();
    log.add('acc-1');
    feed.pokeAll();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual(expected);
  });

  it('starts after the id it is given, and after a failed read carries on from the last id sent', async () => {
    const log = eventLog();
    const errors: unknown[] = [];
    const feed = new StoreEventFeed(log, (error) => errors.push(error));
    const first = log.add('acc-1');
    const seen: number[] = [];
    feed.follow('acc-1', (event) => seen.push(event.id)).start(first);
    const second = log.add('acc-1');
    feed.poke('acc-1');
    await eventually(() => seen.length === 1);
    log.failNextRead();
    const third = log.add('acc-1');
    feed.poke('acc-1');
    await eventually(() => errors.length === 1, { what: 'the failed read reported' });
    feed.poke('acc-1');
    await eventually(() => seen.length === 2, { what: 'the next read' });
    expect(seen).toEqual([second, third]);
  });

  it('says it recovered at the first read that works after a failed one (the service was not ready for good after a database outage)', async () => {
    const log = eventLog();
    const health: string[] = [];
    const feed = new StoreEventFeed(log, () => health.push('failed'), () => health.push('recovered'));
    log.failNextRead();
    feed.follow('acc-1', () => {}).start(0);
    await eventually(() => health.join(), { until: (seen) => seen === 'failed', what: 'the failed read reported' });
    // No event since: the read that works finds nothing, and says so all the same.
    feed.pokeAll();
    await eventually(() => health.join(), { until: (seen) => seen === 'failed,recovered', what: 'the recovery told' });
    const readsBefore = log.reads();
    feed.pokeAll();
    // That read answered, and the feed done with its answer (promise callbacks, all run before an
    // immediate): a fixed 20 ms let a slow machine assert before the read, passing without the check.
    await eventually(() => log.reads() > readsBefore, { what: 'the next read' });
    await new Promise((resolve) => setImmediate(resolve));
    // Once: a read that works with nothing failing before tells nothing.
    expect(health).toEqual(['failed', 'recovered']);
  });

  it('says it recovered when the stream whose read failed closes (its client gone in the outage, no other stream)', async () => {
    const log = eventLog();
    const health: string[] = [];
    const feed = new StoreEventFeed(log, () => health.push('failed'), () => health.push('recovered'));
    log.failNextRead();
    const following = feed.follow('acc-1', () => {});
    following.start(0);
    await eventually(() => health.join(), { until: (seen) => seen === 'failed', what: 'the failed read reported' });
    following.stop();
    expect(health).toEqual(['failed', 'recovered']);
  });
});
