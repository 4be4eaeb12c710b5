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
import type { SessionRepository } from '../../domain/ports/sessions.js';
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
      if ('full' in lease) return tooManyStreams(context, 'event streams', lease);
      const stream = new PassThrough();
      // Sent at once, so the response starts before the first event: the reconnection delay.
      stream.write(`retry: ${RECONNECT_MS}\n\n`);
      let lastSent = 0;
      const write = (event: string, id: number, body: unknown) => stream.write(frame(event, String(id), body));

      // Live changes from now on (before the log or snapshot is read: the store is async, and
      // nothing may fall in between), delivered once that is written; none is sent twice.
      const following = feed.follow(accountId, (event) => write('session', event.id, sessionEventBody(event)));
      const [latest, oldest] = await Promise.all([events.latestEventId(), events.oldestEventId()]);
      const resumeFrom = headers['last-event-id'] === undefined ? undefined : Number(headers['last-event-id']);
      // Resumable only from an id this service issued that is still in the replay window.
      const resumable =
        resumeFrom !== undefined &&
        Number.isSafeInteger(resumeFrom) &&
        resumeFrom <= latest &&
        (oldest === undefined ? resumeFrom === latest : resumeFrom >= oldest - 1);
      lastSent = resumable ? resumeFrom : latest;
      if (resumable) {
        for (let batch = await events.eventsAfter(accountId, lastSent, REPLAY_BATCH); batch.length > 0; batch = await events.eventsAfter(accountId, lastSent, REPLAY_BATCH)) {
          for (const event of batch) {
            write('session', event.id, sessionEventBody(event));
            lastSent = event.id;
          }
        }
      } else {
        // A new stream, or one that was away longer than the replay window: the state as it is.
        const live = await sessions.list({ accountId, all: false, labels: {}, notLabels: {} });
        for (const session of live.reverse()) {
          write('snapshot', latest, sessionEventBody({ id: latest, status: session.status, previous: null, at: now(), session }));
        }
      }
      // What changed meanwhile, then live.
      following.start(lastSent);

      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
      const stop = () => {
        clearInterval(heartbeat);
        following.stop();
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
