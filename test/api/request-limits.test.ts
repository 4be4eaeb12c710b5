/**
 * What one request may cost: body limits per operation, nesting depth refused before parsing,
 * deadlines for slow clients, a connection cap, nosniff everywhere, query values kept out of the
 * logs, and request strings never read as inherited properties.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/http.js';
import { TEST_ADMIN, useService } from '../support/service.js';

const logLines: string[] = [];
const LIMITS = { headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 500, maxConnections: 8, maxConnectionsPerAddress: 4 };

/**
 * A raw socket to the service, and a promise of its end (the server closing it). `from`: the
 * client's address, any of 127/8 (all loopback on Linux), so one test can be several clients.
 */
async function rawSocket(url: string, from?: string): Promise<{ socket: Socket; closed: Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, ...(from ? { localAddress: from } : {}) });
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => {});
  // (Not events.once: an error, such as a reset, would reject it; a reset is a close here.)
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  // A refused connection may close before it ever counts as connected.
  await new Promise((resolve) => {
    socket.once('connect', resolve);
    socket.once('close', resolve);
  });
  return { socket, closed };
}

describe('request limits', () => {
  const service = useService(
    { runtime: 'simulated', http: LIMITS },
    { logger: { level: 'info', stream: { write: (line: string) => logLines.push(line) } } },
  );

  it('answers 404, not 500, to a version named like an inherited property', async () => {
    for (const version of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const result = await service.call('POST', '/session', { body: { id: `v-${version.replace(/_/g, 'u')}`, location: 'local-a', image: 'echo', version } });
      expectError(result, 404, 'RESOURCE_NOT_FOUND', '/session');
    }
  });

  it('decodes the panel path once: /admin/%25zz is a page path, not a crash', async () => {
    // Plain fetch: panel pages are not operations of the contract (index.html once the panel is built).
    const result = await fetch(`${service.running.url}/admin/%25zz`);
    expect([200, 404]).toContain(result.status);
    // A bad escape is a 404 in the error body.
    expectError(await service.call('GET', '/admin/%zz', { token: null }), 404, 'RESOURCE_NOT_FOUND', '/admin/%zz');
  });

  it('sends X-Content-Type-Options: nosniff and Cache-Control: no-store on successes, errors and unrouted paths', async () => {
    for (const [path, token] of [['/account', undefined], ['/account', null], ['/nowhere', undefined], ['/session/none', undefined], ['/token', undefined]] as const) {
      const result = await service.call('GET', path, token === null ? { token } : {});
      expect(result.headers.get('x-content-type-options'), path).toBe('nosniff');
      // Answers carry tokens, env values and session state: no browser or proxy is to keep them.
      expect(result.headers.get('cache-control'), path).toBe('no-store');
    }
  });

  it('limits the sign-in and token bodies to 8 KiB (413)', async () => {
    const big = 'x'.repeat(9 * 1024);
    expectError(await service.call('POST', '/admin/api/auth', { token: null, body: { email: TEST_ADMIN.email, password: big } }), 413, 'PAYLOAD_TOO_LARGE', '/admin/api/auth');
    expectError(await service.call('POST', '/token', { body: { name: big, scopes: [] } }), 413, 'PAYLOAD_TOO_LARGE', '/token');
  });

  it('refuses JSON nested deeper than 32 levels before parsing it (422)', async () => {
    const nested = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const result = await service.call('POST', '/session', { body: `{"id":"deep","location":"local-a","image":"echo","args":${nested}}` });
    expectError(result, 422, 'INVALID_REQUEST', '/session');
    expect(result.json.violations).toEqual([{ field: 'body', description: 'nests deeper than 32 levels' }]);
    // Brackets inside strings are text, not nesting.
    const text = await service.call('POST', '/session', { body: { id: 'brackets', location: 'local-a', image: 'echo', labels: { x: '['.repeat(100) } } });
    expect(text.status).toBe(201);
  });

  it('closes a connection whose headers trickle in slower than the headers deadline (slowloris)', async () => {
    const { socket, closed } = await rawSocket(service.running.url);
    socket.write('GET /account HTTP/1.1\r\nHost: localhost\r\n');
    let sent = 0;
    const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${sent++}: 1\r\n`), 100);
    const received = await closed;
    clearInterval(trickle);
    expect(received).toMatch(/^HTTP\/1.1 408/);
    // Well before the client would have finished: 100 header lines at this pace take 10 s.
    expect(sent).toBeLessThan(100);
  }, 20_000);

  it('refuses connections beyond the cap, and serves again once they close', async () => {
    // From two addresses, each within its own cap.
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnections }, (_, i) => rawSocket(service.running.url, `127.0.0.${2 + (i % 2)}`)));
    for (const { socket } of held) socket.write('GET /account HTTP/1.1\r\nHost: localhost\r\n');
    try {
      const extra = await rawSocket(service.running.url, '127.0.0.4');
      if (!extra.socket.destroyed) extra.socket.write('GET /account HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(await extra.closed).toBe('');
    } finally {
      for (const { socket } of held) socket.destroy();
      await Promise.all(held.map((h) => h.closed));
    }
    expect((await service.call('GET', '/account')).status).toBe(200);
  }, 20_000);

  it('refuses one address past its own cap while other addresses are served, and logs it once', async () => {
    const attacker = '127.0.0.5';
    // Headers sent, the body never: each held until the request deadline.
    const holding = () => rawSocket(service.running.url, attacker);
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnectionsPerAddress }, holding));
    for (const { socket } of held) socket.write('POST /session HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000\r\n\r\n');
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const extra = await holding();
        if (!extra.socket.destroyed) extra.socket.write('GET /account HTTP/1.1\r\nHost: localhost\r\n\r\n');
        expect(await extra.closed).toBe('');
      }
      // Anyone else (the test's own address) is served meanwhile.
      expect((await service.call('GET', '/account')).status).toBe(200);
      const refusals = logLines.filter((line) => line.includes('connections refused'));
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toContain(attacker);
      // One closed (once the service has seen it close), one more admitted: waited for up to 10 s,
      // not vi.waitFor's default of one second, a background effect a loaded machine may be slow with.
      const gone = held.pop()!;
      gone.socket.destroy();
      await gone.closed;
      await vi.waitFor(async () => {
        const next = await holding();
        next.socket.write('GET /account HTTP/1.1\r\nHost: localhost\r\n\r\n');
        next.socket.end();
        expect(await next.closed).toMatch(/^HTTP\/1.1 401/);
      }, { timeout: 10_000, interval: 50 });
    } finally {
      for (const { socket } of held) socket.destroy();
      await Promise.all(held.map((h) => h.closed));
    }
  }, 20_000);

  it('logs request URLs without their query values', async () => {
    await service.call('GET', '/session?filter[secret]=hunter2&cursor=c2VjcmV0&all=true');
    const logged = logLines.join('\n');
    expect(logged).toContain('/session?filter%5Bsecret%5D=_');
    expect(logged).not.toContain('hunter2');
    expect(logged).not.toContain('c2VjcmV0');
  });
});
