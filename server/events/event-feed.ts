/**
 * Where an open event stream gets an account's new events from, after its snapshot or replay.
 * One instance: straight from its own session changes, as they happen. Several instances: from
 * the event log in the database, read after the last id sent whenever this instance or another
 * says the account has new events (the bus), so a stream on any instance sees every change, in
 * order, none twice. Ids are in commit order (PostgreSQL's appends hold the log's lock to their
 * commit: postgres/sessions.ts), so reading "after the last id sent" never steps over one.
 */
import type { SessionChange } from '../domain/session-machine.js';
import type { SessionRepository, StoredEvent } from '../domain/ports/sessions.js';

export interface EventFeed {
  /**
   * Follow the account's events: from now on nothing is missed, and from `start(afterId)` on the
   * listener gets every event after `afterId` (the last one the caller sent from its snapshot or
   * replay), in order, once each, until `stop()`.
   */
  follow(accountId: string, listener: (event: StoredEvent) => void, overflow?: () => void): { start(afterId: number): void; stop(): void };
}

/**
 * New events one stream holds while its replay or snapshot is still being written (the feed
 * below): past them it stops following and `overflow` is called (the stream is closed, and its
 * client resumes with Last-Event-ID, missing nothing). A replay goes at its client's pace, and one
 * taking a few KB every 25 s is never cut as stalled: every event of its account waited behind
 * it, without bound (outside check oc3). Each held event is a small record (labels and players
 * shared with the session's), so this is a few MB, like the live stream's MAX_UNSENT_BYTES.
 */
export const MAX_HELD_EVENTS = 4096;

/** One instance: its own changes are all there is (kept from follow() until start()). */
export function localEventFeed(sessions: { onChange(listener: (change: SessionChange) => void): () => void }): EventFeed {
  return {
    follow(accountId, listener, overflow) {
      let lastSent = 0;
      let held: StoredEvent[] | undefined = [];
      const send = (event: StoredEvent) => {
        if (event.id <= lastSent) return;
        lastSent = event.id;
        listener(event);
      };
      const stop = sessions.onChange(({ eventId, session, previous, at }) => {
        if (session.accountId !== accountId) return;
        const event = { id: eventId, status: session.status, previous, at, session };
        if (!held) return send(event);
        held.push(event);
        if (held.length <= MAX_HELD_EVENTS) return;
        held = [];
        stop();
        overflow?.();
      });
      return {
        start(afterId) {
          lastSent = afterId;
          for (const event of held ?? []) send(event);
          held = undefined;
        },
        stop,
      };
    },
  };
}

const BATCH = 500;

interface Follower {
  accountId: string;
  lastSent: number;
  listener: (event: StoredEvent) => void;
  reading: boolean;
  /** Poked while reading: read again when done. */
  again: boolean;
  closed: boolean;
}

/** Several instances: read from the log when poked (a bus message, a local change, a resync). */
export class StoreEventFeed implements EventFeed {
  private readonly followers = new Map<string, Set<Follower>>();
  /**
   * Followers whose last read failed (told through onError): onRecovered is told once none is
   * left, by a read that works or by the stream closing. A stream closed while failing (its
   * client gone in the outage) left the feed failing for good when it was the only one.
   */
  private readonly failing = new Set<Follower>();

  constructor(
    /** The event log (sync or async, as the store's port is). */
    private readonly events: { eventsAfter(...args: Parameters<SessionRepository['eventsAfter']>): StoredEvent[] | Promise<StoredEvent[]> },
    private readonly onError: (error: unknown) => void,
    /**
     * Without it the failure stayed told for good: the service's `event-streams` component
     * failing, /readyz 503 (out of a balancer's rotation) after any database outage that met an
     * open event stream (outside check).
     */
    private readonly onRecovered: () => void = () => {},
  ) {}

  follow(accountId: string, listener: (event: StoredEvent) => void): { start(afterId: number): void; stop(): void } {
    const follower: Follower = { accountId, lastSent: 0, listener, reading: false, again: false, closed: false };
    let started = false;
    return {
      // The log holds everything: nothing to keep before start, which reads what was written since afterId.
      start: (afterId) => {
        if (started || follower.closed) return;
        started = true;
        follower.lastSent = afterId;
        let set = this.followers.get(accountId);
        if (!set) this.followers.set(accountId, (set = new Set()));
        set.add(follower);
        void this.read(follower);
      },
      stop: () => {
        follower.closed = true;
        const set = this.followers.get(accountId);
        set?.delete(follower);
        if (set?.size === 0) this.followers.delete(accountId);
        this.failingNoMore(follower);
      },
    };
  }

  /** The account has new events. */
  poke(accountId: string): void {
    for (const follower of this.followers.get(accountId) ?? []) void this.read(follower);
  }

  /** News may have been missed (the bus reconnected, or a periodic check): every follower reads. */
  pokeAll(): void {
    for (const accountId of this.followers.keys()) this.poke(accountId);
  }

  private async read(follower: Follower): Promise<void> {
    if (follower.reading) {
      follower.again = true;
      return;
    }
    follower.reading = true;
    try {
      do {
        follower.again = false;
        let batch: StoredEvent[];
        do {
          batch = await this.events.eventsAfter(follower.accountId, follower.lastSent, BATCH);
          for (const event of batch) {
            if (follower.closed) return;
            follower.lastSent = event.id;
            follower.listener(event);
          }
        } while (batch.length === BATCH);
      } while (follower.again && !follower.closed);
      this.failingNoMore(follower);
    } catch (error) {
      // Closed meanwhile: no stream waits for it, and nothing would ever tell its recovery.
      if (follower.closed) return;
      // The next poke (or the periodic check) reads again from the same place.
      this.failing.add(follower);
      this.onError(error);
    } finally {
      follower.reading = false;
    }
  }

  private failingNoMore(follower: Follower): void {
    if (this.failing.delete(follower) && this.failing.size === 0) this.onRecovered();
  }
}
