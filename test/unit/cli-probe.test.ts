/**
 * `sessions probe` over TCP against a hostile game: an answer without a newline is cut at
 * MAX_TCP_ANSWER (the CLI's memory grew with it), and an answer dribbled a byte at a time ends at
 * the timeout (an idle timeout never fired).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TCP_ANSWER, probe } from '../../client/cli/probe.js';

describe('sessions probe over TCP', () => {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });
  const listen = async (serve: (socket: Socket) => void) => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      serve(socket);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  };

  it('keeps at most MAX_TCP_ANSWER of an answer that never ends its line', async () => {
    const port = await listen((socket) => {
      const chunk = 'x'.repeat(16 * 1024);
      const send = () => {
        while (!socket.destroyed && socket.write(chunk));
        if (!socket.destroyed) socket.once('drain', send);
      };
      send();
    });
    const [result] = await probe('127.0.0.1', [{ host: port, type: 'tcp' }], 'hello', 5000);
    expect(result!.answer!.length).toBe(MAX_TCP_ANSWER);
  });

  it('ends at the timeout when the answer comes a byte at a time', async () => {
    const port = await listen((socket) => {
      const timer = setInterval(() => socket.write('y'), 100);
      socket.on('close', () => clearInterval(timer));
    });
    const started = performance.now();
    const [result] = await probe('127.0.0.1', [{ host: port, type: 'tcp' }], 'hello', 1000);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result!.answer).toMatch(/^y+$/);
  });
});
