/**
 * waitForStatus(api, id, 'running'): follow GET /events (Server-Sent Events, `snapshot` and
 * `session` events whose `data` is a SessionEvent) until the session reaches the status; fall back
 * to polling GET /session/{id} when the stream cannot be opened or ends early. Resolves with the
 * session; rejects with a WaitError when it ends (`exited`, `dead`) in another status or the time
 * runs out, with the typed error of a failed read, or with the signal's reason when aborted.
 *
 * A poll that finds the service restarting (connection refused or reset, `503`, a proxy's 502 or
 * 504) is polled again until the timeout: game servers outlive the service's restarts, so a wait
 * for one must too. Every other failed read (404, 401, 500) rejects at once.
 */
import { createParser } from 'eventsource-parser';
import type { Session, SessionEvent, SessionStatus } from '../generated/types.js';
import { ServiceUnavailableError, UnexpectedResponseError, UnreachableError, unwrap, WaitError } from './errors.js';
import type { SessionHostClient } from './index.js';
import { sleep } from './sleep.js';


const FINAL: readonly SessionStatus[] = ['exited', 'dead'];

/** A read that failed because the service is restarting or briefly busy, not because of the request. */
function transient(error: unknown): boolean {
  return (
    error instanceof UnreachableError ||
    error instanceof ServiceUnavailableError ||
    (error instanceof UnexpectedResponseError && [502, 503, 504].includes(error.status))
  );
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Give up after this long (default 60 s). */
  timeoutMs?: number;
  /** Polling interval of the fallback (default 500 ms). */
  pollIntervalMs?: number;
  /** `auto`: the event stream, polling if it fails (default); `polling`: polling only. */
  via?: 'auto' | 'polling';
  /** Told each status the session is seen in (for progress output). */
  onStatus?: (status: SessionStatus, session: Session) => void;
}

export interface WaitResult {
  session: Session;
  /** How the status was learnt: from the event stream (and one read when it opened) or by polling. */
  via: 'events' | 'polling';
}

export async function waitForStatus(
  api: SessionHostClient,
  id: string,
  status: SessionStatus | SessionStatus[],
  options: WaitOptions = {},
): Promise<WaitResult> {
  const targets = Array.isArray(status) ? status : [status];
  const timeoutMs = options.timeoutMs ?? 60_000;
  let last: Session | undefined;
  let lastFailure: Error | undefined;

  const controller = new AbortController();
  const signal = controller.signal;
  const timer = setTimeout(
    () =>
      controller.abort(
        new WaitError(
          `session ${id} did not become ${targets.join('|')} within ${timeoutMs} ms (last seen ${last?.status ?? 'never'}${lastFailure ? `; last read: ${lastFailure.message}` : ''})`,
          last,
        ),
      ),
    timeoutMs,
  );
  const onAbort = () => controller.abort(options.signal!.reason);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  /** True when `session` is in a target status; throws when it ended otherwise. */
  const reached = (session: Session): boolean => {
    if (session.status !== last?.status) options.onStatus?.(session.status, session);
    last = session;
    if (targets.includes(session.status)) return true;
    if (FINAL.includes(session.status)) {
      throw new WaitError(`session ${id} ended ${session.status} (${session.end_reason ?? 'no reason'}) before becoming ${targets.join('|')}`, session);
    }
    return false;
  };
  const read = async () => unwrap(await api.GET('/session/{id}', { params: { path: { id } }, signal }));

  try {
    if (options.via !== 'polling') {
      const session = await viaEvents(api, id, signal, reached, read);
      if (session) return { session, via: 'events' };
    }
    for (;;) {
      let session: Session | undefined;
      try {
        session = await read();
        lastFailure = undefined;
      } catch (error) {
        if (signal.aborted || !transient(error)) throw error;
        lastFailure = error as Error;
      }
      if (session && reached(session)) return { session, via: 'polling' };
      await sleep(options.pollIntervalMs ?? 500, signal);
    }
  } catch (error) {
    throw signal.aborted ? signal.reason : error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    controller.abort(); // closes the event stream, if still open
  }
}

/** The session once reached over the event stream; undefined when the stream failed or ended first. */
async function viaEvents(
  api: SessionHostClient,
  id: string,
  signal: AbortSignal,
  reached: (session: Session) => boolean,
  read: () => Promise<Session>,
): Promise<Session | undefined> {
  let stream: ReadableStream<Uint8Array> | undefined;
  try {
    const result = await api.GET('/events', { parseAs: 'stream', signal });
    if (result.response.ok && result.response.headers.get('content-type')?.startsWith('text/event-stream')) {
      stream = result.data ?? undefined;
    } else {
      await result.response.body?.cancel();
    }
  } catch (error) {
    if (signal.aborted) throw error;
  }
  if (!stream) return undefined;

  // The stream is open, so no change is missed from here on: read the current state once (the
  // snapshot omits sessions that already ended).
  const current = await read();
  if (reached(current)) {
    await stream.cancel().catch(() => {});
    return current;
  }
  const seen: Session[] = [];
  const parser = createParser({
    onEvent(event) {
      if (event.event !== 'session' && event.event !== 'snapshot') return;
      try {
        const data = JSON.parse(event.data) as SessionEvent;
        if (data.session?.id === id) seen.push(data.session);
      } catch {
        // Not JSON: not an event of ours.
      }
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      for (const session of seen.splice(0)) if (reached(session)) return session;
    }
  } catch (error) {
    if (signal.aborted || !(error instanceof TypeError)) throw error;
  }
  return undefined; // the stream ended: the caller polls
}
