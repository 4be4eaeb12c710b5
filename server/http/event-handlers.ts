/**
 * GET /events: Server-Sent Events of the account's session changes. A new stream starts with a
 * snapshot of the live sessions (each carrying the id of the latest event it includes); a
 * reconnect with Last-Event-ID replays what it missed from the event log instead, when that is
 * still in the replay window. Live changes are buffered while the start is written, so nothing
 * falls between the two. SSE framing is a few lines, so it is written here rather than through a
 * plugin that would bypass the generated handler interface.
 */
import { PassThrough } from 'node:stream';
import type { Handlers } from '../../generated/handlers.js';
import type { SessionChange, Sessions } from '../domain/sessions.js';
import type { SessionRepository } from '../domain/session-record.js';
import type { RequestContext } from './context.js';
import { sessionEventBody } from './session-view.js';

const HEARTBEAT_MS = 15_000;
const RECONNECT_MS = 2000;
const REPLAY_BATCH = 500;

function frame(event: string, id: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The open event streams, so a shutdown can end them instead of waiting on them. */
export class OpenStreams {
  private readonly streams = new Set<PassThrough>();

  add(stream: PassThrough): void {
    this.streams.add(stream);
    stream.once('close', () => this.streams.delete(stream));
  }

  endAll(): void {
    for (const stream of this.streams) stream.end();
  }
}

export function eventHandlers(
  sessions: Sessions,
  events: Pick<SessionRepository, 'eventsAfter' | 'oldestEventId'> & { latestEventId(): number },
  open: OpenStreams,
): Pick<Handlers<RequestContext>, 'streamEvents'> {
  return {
    async streamEvents({ headers }, context) {
      const accountId = context.principal.accountId;
      const stream = new PassThrough();
      // Sent at once, so the response starts before the first event: the reconnection delay.
      stream.write(`retry: ${RECONNECT_MS}\n\n`);
      let lastSent = 0;
      let ready = false;
      const pending: SessionChange[] = [];
      const send = (change: SessionChange) => {
        if (change.eventId <= lastSent) return;
        lastSent = change.eventId;
        const { eventId, session, previous, at } = change;
        stream.write(frame('session', String(eventId), sessionEventBody({ id: eventId, status: session.status, previous, at, session })));
      };
      const unsubscribe = sessions.onChange((change) => {
        if (change.session.accountId !== accountId) return;
        if (ready) send(change);
        else pending.push(change);
      });

      const resumeFrom = headers['last-event-id'] === undefined ? undefined : Number(headers['last-event-id']);
      const oldest = events.oldestEventId();
      if (resumeFrom !== undefined && (oldest === undefined || resumeFrom >= oldest - 1)) {
        lastSent = resumeFrom;
        for (let batch = events.eventsAfter(accountId, lastSent, REPLAY_BATCH); batch.length > 0; batch = events.eventsAfter(accountId, lastSent, REPLAY_BATCH)) {
          for (const event of batch) {
            stream.write(frame('session', String(event.id), sessionEventBody(event)));
            lastSent = event.id;
          }
        }
      } else {
        // A new stream, or one that was away longer than the replay window: the state as it is.
        lastSent = events.latestEventId();
        const live = sessions.list({ accountId, all: false, labels: {}, notLabels: {} });
        for (const session of live.reverse()) {
          stream.write(frame('snapshot', String(lastSent), sessionEventBody({ id: lastSent, status: session.status, previous: null, at: Date.now(), session })));
        }
      }
      for (const change of pending) send(change);
      ready = true;

      const heartbeat = setInterval(() => stream.write(': keep-alive\n\n'), HEARTBEAT_MS);
      const stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
        stream.end();
      };
      context.signal.addEventListener('abort', stop);
      stream.once('finish', stop);
      open.add(stream);
      return { status: 200, body: stream, headers: { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' } };
    },
  };
}
