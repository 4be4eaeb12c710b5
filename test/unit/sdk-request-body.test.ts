/**
 * No SDK call takes a request body, and one sent anyway is not read: the SDK's server (a session's
 * supervisor, or the service itself for Docker containers) drained every body, so a game server
 * streaming an endless chunked body made it read ~100 MB/s outside the session's limits for one
 * call of its budget (outside check 9, F9). Such a call is answered 400 and its connection closed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { serveSdk } from '../../server/runtime/sdk-server.mjs';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.reverse()) step();
  cleanup = [];
});

it('answers a call with a body 400 and closes its connection without reading the body', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sdk-body-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const socketPath = join(dir, 'sdk.sock');
  let health = 0;
  const sdk = await serveSdk({ socketPath, bindDir: join(dir, 'bind'), allocation: null, onReady() {}, onHealth: () => health++, onPlayers() {} });
  cleanup.push(() => sdk.close());

  const socket = connect(socketPath);
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('POST /health HTTP/1.1\r\nHost: sdk\r\nTransfer-Encoding: chunked\r\n\r\n');
  // An endless body: 64 KiB chunks for as long as the connection takes them.
  const chunk = `10000\r\n${'x'.repeat(0x10000)}\r\n`;
  let sent = 0;
  const pump = () => {
    while (!socket.destroyed && sent < 64 * 1024 * 1024 && socket.write(chunk)) sent += chunk.length;
    if (!socket.destroyed && sent < 64 * 1024 * 1024) socket.once('drain', pump);
  };
  pump();
  await closed;
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  expect(answer).toContain('no SDK call takes a request body');
  expect(health).toBe(0);
  // Closed long before the 64 MiB the client had to send.
  expect(sent).toBeLessThan(16 * 1024 * 1024);
});
