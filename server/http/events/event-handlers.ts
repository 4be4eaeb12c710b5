/**
 * GET /events: Server-Sent Events of the account's session changes. A new stream starts with a
 * snapshot of the live sessions (each carrying the id of the latest event it includes); a
 * reconnect with Last-Event-ID replays what it missed from the event log instead, when that is
 * still in the replay window. The live subscription is taken before the log is read and holds
 * what arrives meanwhile, so nothing falls between the two. SSE framing is a few lines, so it is written here rather than through a
 * plugin that would bypass the generated handler interface.
 *
 * The client sets the pace: the replay and the snapshot wait for it to take what was written
 * (an account's replay can be gigabytes), and a live stream it leaves more than
 * MAX_UNSENT_BYTES behind is closed (it reconnects with Last-Event-ID and misses nothing).
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
/** Bytes a live stream may hold that its client has not taken (a few whole sessions). */
export const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/** Resolves when the stream can take more (at once if it can), or when it is gone. */
function drained(stream: PassThrough): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('close', done);
  });
}

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
  log: { warn(fields: object, message: string): void; error(fields: object, message: string): void },
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
      // What the client has not taken yet, held here (the socket's own buffers are bounded).
      const unsent = () => stream.writableLength + stream.readableLength;

      // Live changes from now on (before the log or snapshot is read: the store is async, and
      // nothing may fall in between), delivered once that is written; none is sent twice.
      const following = feed.follow(accountId, (event) => {
        if (stream.destroyed) return;
        write('session', event.id, sessionEventBody(event));
        if (unsent() <= MAX_UNSENT_BYTES) return;
        log.warn({ account: accountId, unsentBytes: unsent() }, 'event stream closed: its client fell too far behind (it resumes with Last-Event-ID)');
        stream.destroy();
      }, () => {
        // More new events than MAX_HELD_EVENTS waited behind a replay or snapshot its client takes slowly.
        log.warn({ account: accountId }, 'event stream closed: its replay or snapshot went so slowly that too many new events waited behind it (it resumes with Last-Event-ID)');
        stream.destroy();
      });
      const [latest, oldest] = await Promise.all([events.latestEventId(), events.oldestEventId()]);
      const resumeFrom = headers['last-event-id'] === undefined ? undefined : Number(headers['last-event-id']);
      // Resumable only from an id this service issued that is still in the replay window.
      const resumable =
        resumeFrom !== undefined &&
        Number.isSafeInteger(resumeFrom) &&
        resumeFrom <= latest &&
        (oldest === undefined ? resumeFrom === latest : resumeFrom >= oldest - 1);
      lastSent = resumable ? resumeFrom : latest;
      // Written at the client's pace, after the answer has started.
      const catchUp = async () => {
        if (resumable) {
          for (let batch = await events.eventsAfter(accountId, lastSent, REPLAY_BATCH); batch.length > 0; batch = await events.eventsAfter(accountId, lastSent, REPLAY_BATCH)) {
            for (const event of batch) {
              if (stream.destroyed) return;
              if (!write('session', event.id, sessionEventBody(event))) await drained(stream);
              lastSent = event.id;
            }
          }
        } else {
          // A new stream, or one that was away longer than the replay window: the state as it is.
          const live = await sessions.list({ accountId, all: false, labels: {}, notLabels: {} });
          for (const session of live.reverse()) {
            if (stream.destroyed) return;
            if (!write('snapshot', latest, sessionEventBody({ id: latest, status: session.status, previous: null, at: now(), session }))) await drained(stream);
          }
        }
        // What changed meanwhile, then live.
        if (!stream.destroyed) following.start(lastSent);
      };
      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
      let stopped = false;
      const stop = () => {
        if (stopped) return;
        stopped = true;
        clearInterval(heartbeat);
        following.stop();
        lease.release();
        stream.end();
      };
      context.signal.addEventListener('abort', stop);
      // Its token revoked, expired or disabled, its account disabled, or the service closing.
      lease.signal.addEventListener('abort', stop);
      stream.once('finish', stop);
      stream.once('close', stop);
      // Ended while the log was read.
      if (context.signal.aborted || lease.signal.aborted) stop();
      else
        catchUp().catch((error: unknown) => {
          log.error({ err: error, account: accountId }, 'event stream replay failed');
          stream.destroy();
        });
      return { status: 200, body: stream, headers: { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' } };
    },
  };
}
