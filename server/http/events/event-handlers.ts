/**
 * GET /events: Server-Sent Events of the account's session changes. A new stream starts with a
 * snapshot of the live sessions (each carrying the id of the latest event it includes); a
 * reconnect with Last-Event-ID replays what it missed from the event log instead, when that is
 * still in the replay window. The live subscription is taken before the log is read and holds
 * what arrives meanwhile, so nothing falls between the two. SSE framing is a few lines, so it is written here rather than through a
 * plugin that would bypass the generated handler interface.
 */
import { PassThrough } from 'node:stream';
import type { Handlers } from '../../../generated/handlers.js';
import type { Sessions } from '../../domain/sessions.js';
import type { SessionRepository, StoredEvent } from '../../domain/ports/sessions.js';
import type { EventFeed } from '../../events/event-feed.js';
import { tooManyStreams, type OpenStreams } from '../open-streams.js';
import { sessionEventBody } from '../session-view.js';

const HEARTBEAT_MS = 15_000;
const RECONNECT_MS = 2000;
const REPLAY_BATCH = 500;

function frame(event: string, id: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function eventHandlers(
  sessions: Sessions,
  events: Pick<SessionRepository, 'eventsAfter' | 'oldestEventId' | 'latestEventId'>,
  open: OpenStreams,
  now: () => number,
  /** Where live changes come from after the snapshot or replay (server/events/event-feed.ts). */
  feed: EventFeed,
): Pick<Handlers, 'streamEvents'> {
  return {
    async streamEvents({ headers }, context) {
      const accountId = context.principal.accountId;
      const lease = open.open('events', context.principal);
      if (!lease) return tooManyStreams(context, 'event streams', open.limit('events'));
      const stream = new PassThrough();
      // Sent at once, so the response starts before the first event: the reconnection delay.
      stream.write(`retry: ${RECONNECT_MS}\n\n`);
      let lastSent = 0;
      const write = (event: string, id: number, body: unknown) => stream.write(frame(event, String(id), body));

      const [latest, oldest] = await Promise.all([events.latestEventId(), events.oldestEventId()]);
      const resumeFrom = headers['last-event-id'] === undefined ? undefined : Number(headers['last-event-id']);
      // Resumable only from an id this service issued that is still in the replay window.
      const resumable =
        resumeFrom !== undefined &&
        Number.isSafeInteger(resumeFrom) &&
        resumeFrom <= latest &&
        (oldest === undefined ? resumeFrom === latest : resumeFrom >= oldest - 1);
      lastSent = resumable ? resumeFrom : latest;
      // Live changes from here (before the replay or snapshot is read: the store is async, and
      // nothing may fall in between), held until that is written; none is sent twice.
      let held: StoredEvent[] | undefined = [];
      const send = (event: StoredEvent) => {
        if (event.id <= lastSent) return;
        lastSent = event.id;
        write('session', event.id, sessionEventBody(event));
      };
      const unsubscribe = feed.follow(accountId, lastSent, (event) => (held ? held.push(event) : send(event)));
      if (resumable) {
        for (let batch = await events.eventsAfter(accountId, lastSent, REPLAY_BATCH); batch.length > 0; batch = await events.eventsAfter(accountId, lastSent, REPLAY_BATCH)) {
          for (const event of batch) send(event);
        }
      } else {
        // A new stream, or one that was away longer than the replay window: the state as it is.
        const live = await sessions.list({ accountId, all: false, labels: {}, notLabels: {} });
        for (const session of live.reverse()) {
          write('snapshot', latest, sessionEventBody({ id: latest, status: session.status, previous: null, at: now(), session }));
        }
      }
      for (const event of held) send(event);
      held = undefined;

      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
      const stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
        lease.release();
        stream.end();
      };
      context.signal.addEventListener('abort', stop);
      // Its token revoked, expired or disabled, its account disabled, or the service closing.
      lease.signal.addEventListener('abort', stop);
      stream.once('finish', stop);
      // Ended while the log was read.
      if (context.signal.aborted || lease.signal.aborted) stop();
      return { status: 200, body: stream, headers: { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' } };
    },
  };
}
