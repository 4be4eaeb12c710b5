/**
 * GET /events and a client that does not read: the service keeps at most MAX_UNSENT_BYTES of a
 * live stream its client has not taken, then closes the stream (the client resumes with
 * Last-Event-ID), rather than holding every later event of the account in its memory.
 * (The replay and the snapshot wait for the client instead: test/unit/event-stream-pace.test.ts.)
 */
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_UNSENT_BYTES } from '../../server/http/events/event-handlers.js';
import { eventually } from '../support/eventually.mjs';
import { useService } from '../support/service.js';

// Every event carries its whole session: 64 labels of 1,024 characters, and 1,024 players of 128.
const labels = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`l${i}`, 'x'.repeat(1024)]));
const players = (session: number, batch: number) => Array.from({ length: 256 }, (_, j) => `${session}-${batch}-${j}-`.padEnd(128, 'z'));

describe('an event stream whose client does not read', () => {
  // One stream per account: whether the stalled one is still open shows in a second one's answer.
  const service = useService({ runtime: 'simulated', limits: { streams: { events: 1, logs: 2, artifacts: 2 }, subscriptions: 3 } });
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((socket) => socket.destroy()));

  /** The status a new GET /events gets (a 200 is closed at once). */
  async function eventsStatus(): Promise<number> {
    const controller = new AbortController();
    const response = await fetch(`${service.running.url}/events`, { headers: { Authorization: `Bearer ${service.running.token}` }, signal: controller.signal });
    controller.abort();
    return response.status;
  }

  it('is closed once it holds more than MAX_UNSENT_BYTES, and its client may open another', async () => {
    const { port } = new URL(service.running.url);
    const socket = connect(Number(port), '127.0.0.1');
    sockets.push(socket);
    await once(socket, 'connect');
    socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${service.running.token}\r\n\r\n`);
    // Its answer's head first: until then a probe below could take the account's one stream
    // before it (it was 429 then, and nothing held the stream: CI's PostgreSQL pass saw that).
    const [head] = (await once(socket, 'data')) as [Buffer];
    expect(head.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
    // Never read again: what the kernel's buffers cannot take stays in the service.
    socket.pause();
    await eventually(async () => expect(await eventsStatus()).toBe(429));

    let sent = 0;
    let lifecycles = 0;
    // Enough for the socket buffers (tcp_wmem and tcp_rmem: up to 4 + 6 MB by default) and MAX_UNSENT_BYTES.
    while ((await eventsStatus()) === 429) {
      expect(sent, 'the stalled stream was never closed').toBeLessThan(3 * MAX_UNSENT_BYTES + 16 * 1024 * 1024);
      const id = `hog-${lifecycles++}`;
      expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo', labels } })).status).toBe(201);
      for (let batch = 0; batch < 4; batch++) {
        expect((await service.call('PUT', '/session/player/join', { body: { session: id, players: players(lifecycles, batch) } })).status).toBe(200);
      }
      expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
      // created and running with labels; draining, shuttingdown and exited with the players too.
      sent += 5 * 66_000 + 3 * 132_000;
    }
    expect(lifecycles).toBeGreaterThan(1);
  }, 90_000);
});
