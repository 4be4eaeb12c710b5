/**
 * The engine's event stream (`GET /events`), filtered to this instance's containers: the
 * runtime learns of a start, an exit, a restart or a removal as it happens, instead of polling.
 * A stream that ends or fails is opened again with a backoff (0.5 s doubling to 15 s, back to
 * 0.5 s once one stays up); every (re)connection is followed by a full resync, since events
 * sent while no stream was open are lost.
 */
import { LABEL, type Engine } from './engine-client.js';

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 15_000;

export interface EventFollower {
  stop(): void;
}

export interface EventHandlers {
  /** The stream is open: whatever happened before it is resynced now. */
  connected(): void;
  /** A container event of the session (start, die, restart, oom, destroy, ...). */
  container(sessionId: string, action: string): void;
}

export function followEngineEvents(engine: Engine, instance: string, handlers: EventHandlers): EventFollower {
  let stopped = false;
  let backoff = FIRST_BACKOFF_MS;
  let timer: NodeJS.Timeout | undefined;
  let current: (NodeJS.ReadableStream & { destroy?: () => void }) | undefined;

  const retry = () => {
    current = undefined;
    if (stopped) return;
    timer = setTimeout(open, backoff);
    timer.unref();
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  };

  async function open(): Promise<void> {
    if (stopped) return;
    let stream: NodeJS.ReadableStream & { destroy?: () => void };
    try {
      stream = (await engine.streams.getEvents({ filters: { type: ['container'], label: [`${LABEL.instance}=${instance}`] } })) as typeof stream;
    } catch {
      return retry();
    }
    if (stopped) return stream.destroy?.();
    current = stream;
    const openedAt = Date.now();
    let buffered = '';
    stream.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (!line) continue;
        try {
          const event = JSON.parse(line) as { Action?: string; Actor?: { Attributes?: Record<string, string> } };
          const sessionId = event.Actor?.Attributes?.[LABEL.session];
          if (sessionId && event.Action) handlers.container(sessionId, event.Action);
        } catch {
          // Not an event: ignore the line.
        }
      }
    });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (Date.now() - openedAt > MAX_BACKOFF_MS) backoff = FIRST_BACKOFF_MS;
      retry();
    };
    stream.on('end', end);
    stream.on('close', end);
    stream.on('error', end);
    handlers.connected();
  }

  void open();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      current?.destroy?.();
    },
  };
}
