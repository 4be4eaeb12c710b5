/** The Docker engine's event stream as a node could abuse it: a line that never ends is dropped, not buffered. */
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../server/runtime/docker/engine-client.js';
import { followEngineEvents, MAX_EVENT_LINE } from '../../server/runtime/docker/engine-events.js';

describe('the engine event stream', () => {
  it('drops a stream that sends a line longer than any event, and opens it again', async () => {
    const streams: PassThrough[] = [];
    // An engine (compromised, or broken) answering /events with bytes and no newline.
    const engine = { streams: { getEvents: async () => (streams.push(new PassThrough()), streams.at(-1)) } } as unknown as Engine;
    const connected = vi.fn();
    const follower = followEngineEvents(engine, 'instance-1', { connected, container: () => {} });
    try {
      await vi.waitFor(() => expect(streams).toHaveLength(1));
      streams[0]!.write('{"Action":"start",' + 'x'.repeat(64 * 1024));
      expect(streams[0]!.destroyed).toBe(false);
      for (let sent = 0; sent <= MAX_EVENT_LINE; sent += 64 * 1024) streams[0]!.write('x'.repeat(64 * 1024));
      await vi.waitFor(() => expect(streams[0]!.destroyed).toBe(true));
      await vi.waitFor(() => expect(streams).toHaveLength(2), { timeout: 3000 });
      expect(connected).toHaveBeenCalledTimes(2);
    } finally {
      follower.stop();
    }
  });
});
