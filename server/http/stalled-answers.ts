/**
 * Streamed answers (session lists too large for one write, log reads and follows, artifact
 * downloads, event streams) are written at the client's pace: a client that stops taking bytes
 * stops the answer, and what the answer holds (a list's sessions, a log read's slot, an
 * archive's pool thread) stays held for as long as its connection lives. Outside check 9: 500
 * unread `GET /session?all=true` answers held 4.4 GB; eight unread log reads held an account's
 * read slots for good. Such an answer is cut once the socket has refused more for `stalledMs`.
 *
 * The clock runs only while written bytes wait for the client (the response needs a drain), not
 * while the answer is silent: a log follow of a quiet game, or an event stream between changes,
 * sends nothing for minutes and is not stalled.
 */
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/** How long a streamed answer may wait for its client to take what was written (README, Limits). */
export const DEFAULT_STALLED_ANSWER_MS = 30_000;

/**
 * Cut `res` once it has waited `stalledMs` for a drain. The body is piped into the response
 * (Fastify's sendStream), and the pipe pauses the body when a write is refused and resumes it
 * on the drain: a pause starts the clock, the drain stops it. Cutting the response makes Fastify
 * destroy the body, whose own close gives back what it held.
 */
export function cutWhenStalled(body: Readable, res: ServerResponse, stalledMs: number, onCut: () => void): void {
  let clock: NodeJS.Timeout | undefined;
  const stop = () => {
    clearTimeout(clock);
    clock = undefined;
  };
  const cut = () => {
    clock = undefined;
    if (!res.writableNeedDrain || res.destroyed) return;
    onCut();
    res.destroy();
  };
  body.on('pause', () => {
    if (res.writableNeedDrain && clock === undefined && !res.destroyed) clock = setTimeout(cut, stalledMs);
  });
  res.on('drain', stop);
  res.once('close', () => {
    stop();
    res.off('drain', stop);
  });
}
