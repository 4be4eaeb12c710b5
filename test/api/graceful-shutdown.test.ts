import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startService } from '../support/service.js';

interface Outcome {
  answered: number;
  /** Requests written whose connection ended with no answer: the caller cannot know whether they were done. */
  cut: number;
  /** The connection's last answer said `Connection: close`. */
  toldToClose: boolean;
}

/**
 * A keep-alive client that sends its next request the moment an answer is complete, as a busy
 * client (or HAProxy's connection reuse) does, until the server closes the connection.
 */
function keepAliveClient(url: URL, token: string): { socket: Socket; done: Promise<Outcome> } {
  const socket = connect(Number(url.port), url.hostname);
  const outcome: Outcome = { answered: 0, cut: 0, toldToClose: false };
  let pending = false;
  let received = Buffer.alloc(0);
  const send = () => {
    if (socket.destroyed || socket.writableEnded) return;
    pending = true;
    socket.write(`GET /account HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  };
  socket.on('connect', send);
  socket.on('data', (chunk) => {
    received = Buffer.concat([received, chunk]);
    for (;;) {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      received = received.subarray(end + 4 + length);
      pending = false;
      outcome.answered++;
      if (/\r\nconnection: *close/i.test(head)) outcome.toldToClose = true;
      else setImmediate(send);
    }
  });
  const done = new Promise<Outcome>((resolve) => {
    socket.on('error', () => {});
    socket.on('close', () => {
      if (pending) outcome.cut++;
      resolve(outcome);
    });
  });
  return { socket, done };
}

describe('a service shut down while keep-alive clients keep sending', () => {
  it('answers every request it was sent, the last one on each connection with Connection: close', async () => {
    const running = await startService();
    const url = new URL(running.url);
    const clients = Array.from({ length: 20 }, () => keepAliveClient(url, running.token));
    // Every client is busy: some answers in, so each connection is a kept-alive one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A loaded event loop: requests the clients send meanwhile wait, unread, in the sockets.
    const busyUntil = Date.now() + 100;
    while (Date.now() < busyUntil);
    const closed = running.close();
    const outcomes = await Promise.all(clients.map((client) => client.done));
    await closed;
    expect(outcomes.every((o) => o.answered > 0)).toBe(true);
    expect(outcomes.map((o) => o.cut)).toEqual(outcomes.map(() => 0));
    expect(outcomes.every((o) => o.toldToClose)).toBe(true);
  });
});

describe('a service shut down behind a proxy (SHUTDOWN_DELAY_SECONDS)', () => {
  it('answers GET /readyz 503 for the delay while still serving every request, then closes', async () => {
    const running = await startService({ shutdownDelayMs: 4000 });
    const get = (path: string) => fetch(`${running.url}${path}`, { headers: { authorization: `Bearer ${running.token}` } });
    expect((await get('/readyz')).status).toBe(200);
    const closed = running.close();
    // Early in the delay (wide, so a busy machine still asks before it ends): out of the proxy's rotation, still answering.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const readiness = await get('/readyz');
    expect(readiness.status).toBe(503);
    expect(((await readiness.json()) as { problems: { component: string }[] }).problems.map((p) => p.component)).toEqual(['shutdown']);
    expect((await get('/healthz')).status).toBe(200);
    expect((await get('/account')).status).toBe(200);
    await closed;
    await expect(get('/healthz')).rejects.toThrow();
  });
});
