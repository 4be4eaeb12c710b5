/**
 * A Docker session's readiness probe runs to its deadline on the monotonic clock: a wall clock
 * stepped forward (an NTP correction after a suspend) ended the probe at once, and the session
 * stayed `created` until the reconciler's next poll looked again.
 */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../server/runtime/docker/engine-client.js';
import { probeUntilReady } from '../../server/runtime/docker/readiness.js';
import { freePort } from '../support/free-port.js';

describe('Docker readiness probe', () => {
  const servers: Server[] = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const server of servers.splice(0)) server.close();
  });

  const listen = (port: number) =>
    new Promise<Server>((resolve) => {
      const server = createServer((socket) => socket.destroy());
      servers.push(server);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });

  it('keeps probing when the wall clock steps forward a day', async () => {
    // A port that nothing listens on yet: the game server binds it later.
    const port = await freePort();
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    let inspections = 0;
    const engine = {
      local: false,
      publishIp: '127.0.0.1',
      api: { getContainer: () => ({ inspect: async () => (inspections++, { State: { Running: true, StartedAt: 'start-1', Pid: 1 }, RestartCount: 0 }) }) },
    } as unknown as Engine;
    const ready = probeUntilReady(engine, 'container', { ports: [{ name: 'query', type: 'tcp', container: 7778, host: port }] }, () => true);
    // Up to 10 s, not vi.waitFor's default 1 s: a loaded machine may be slow to probe twice.
    await vi.waitFor(() => expect(inspections).toBeGreaterThan(1), { timeout: 10_000 });
    vi.setSystemTime(Date.now() + 24 * 3_600_000);
    const seen = inspections;
    await vi.waitFor(() => expect(inspections).toBeGreaterThan(seen), { timeout: 10_000 });
    await listen(port);
    expect(await ready).toBe(true);
  });
});
