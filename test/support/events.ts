/** Reads a session event stream (GET /events) with eventsource-parser. */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface EventStream {
  /** Wait until `count` events arrived (or `until` matches one); returns everything so far. */
  waitFor(until: (events: EventSourceMessage[]) => boolean, timeoutMs?: number): Promise<EventSourceMessage[]>;
  events: EventSourceMessage[];
  close(): void;
}

export async function openEventStream(url: string, token: string, lastEventId?: string): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/events`, {
    headers: { Authorization: `Bearer ${token}`, ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`GET /events answered ${response.status}: ${await response.text()}`);
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error('not an event stream');
  const events: EventSourceMessage[] = [];
  const waiters = new Set<() => void>();
  const parser = createParser({
    onEvent: (event) => {
      events.push(event);
      for (const wake of waiters) wake();
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // Aborted by close().
    }
  })();
  return {
    events,
    waitFor(until, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (until(events)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(events);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`events did not arrive; got ${JSON.stringify(events.map((e) => [e.event, e.id, JSON.parse(e.data).status]))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}
