/**
 * The webhook egress guard: internal addresses refused in every spelling, operator-allowed
 * ranges let through, and the check repeated at connect time on the address actually used.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { EgressGuard, parseNetwork } from '../../server/events/egress-guard.js';
import { postWebhook } from '../../server/events/webhook-post.js';

describe('egress guard', () => {
  const guard = new EgressGuard();

  it.each([
    '127.0.0.1', '127.8.9.10', '0.0.0.0', '10.1.2.3', '172.16.0.1', '192.168.1.1', '100.64.0.1',
    '169.254.169.254', '224.0.0.1', '255.255.255.255', '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1',
    'ff02::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '64:ff9b::7f00:1',
    // Where the network translates them, as the game servers' firewall refuses them: a local-use
    // NAT64 prefix (RFC 8215) to 10.0.0.1, and 6to4 of 10.0.0.1 and of 127.0.0.1.
    '64:ff9b:1::a00:1', '2002:a00:1::1', '2002:7f00:1::',
    // IPv4-compatible and IPv4-translated forms of 127.0.0.1 and 10.0.0.1.
    '::7f00:1', '::a00:1', '::ffff:0:7f00:1', '::ffff:0:a00:1',
  ])('refuses %s', (address) => {
    expect(guard.permits(address)).toBe(false);
  });

  it('permits public addresses', () => {
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) expect(guard.permits(address)).toBe(true);
  });

  it('lets the operator allow named ranges, and nothing else', () => {
    const allowing = new EgressGuard(['10.1.0.0/16', 'fd00::/8']);
    expect(allowing.permits('10.1.2.3')).toBe(true);
    expect(allowing.permits('10.2.0.1')).toBe(false);
    expect(allowing.permits('fd00::5')).toBe(true);
    expect(allowing.permits('127.0.0.1')).toBe(false);
    expect(parseNetwork('10.0.0.0/33')).toBeUndefined();
    expect(parseNetwork('not-a-network')).toBeUndefined();
    expect(() => new EgressGuard(['10.0.0.0/8x'])).toThrow();
  });

  it('refuses the host\'s own addresses, public ones too, unless the operator allows them', async () => {
    // A host with a public address: its services bound to every interface (an exporter, a
    // database's HTTP port) answer a POST from the host itself, often past the firewall that keeps
    // the Internet out; the game servers' firewall refuses them (`fib daddr type local`).
    const own = new EgressGuard([], undefined, () => ['93.184.216.34', '2606:4700:4700::1111']);
    expect(own.permits('93.184.216.34')).toBe(false);
    expect(own.permits('::ffff:93.184.216.34')).toBe(false);
    expect(own.permits('2606:4700:4700::1111')).toBe(false);
    expect(own.permits('93.184.216.35')).toBe(true);
    const verdict = await own.check('http://93.184.216.34:9100/hook', 'acc_1');
    expect(verdict.ok ? '' : verdict.why).toMatch(/internal address/);
    expect(new EgressGuard(['93.184.216.0/24'], undefined, () => ['93.184.216.34']).permits('93.184.216.34')).toBe(true);
  });

  it.each([
    ['http://127.0.0.1:8080/hook', /internal address/],
    ['http://0x7f000001:8080/hook', /internal address/],
    ['http://2130706433/hook', /internal address/],
    ['http://[::1]/hook', /internal address/],
    ['http://[::ffff:7f00:1]/hook', /internal address/],
    ['http://169.254.169.254/latest/meta-data', /internal address/],
    ['http://localhost:8080/hook', /internal address/],
    ['ftp://93.184.216.34/hook', /http or https/],
  ])('refuses the URL %s', async (url, why) => {
    const verdict = await guard.check(url, 'acc_1');
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.why).toMatch(why);
  });

  it('checks again when connecting: a name that resolves internally is never connected to', async () => {
    let requests = 0;
    const receiver = createServer((request, response) => {
      requests++;
      request.resume();
      response.end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      // As a rebinding name would: accepted once, resolving to loopback when the delivery connects.
      await expect(postWebhook(`http://localhost:${port}/hook`, {}, '{}', { guard, accountId: 'acc_1', deadlineMs: 2000 })).rejects.toThrow(/refused/);
      await expect(postWebhook(`http://127.0.0.1:${port}/hook`, {}, '{}', { guard, accountId: 'acc_1', deadlineMs: 2000 })).rejects.toThrow(/refused/);
      expect(requests).toBe(0);
      // Allowed by the operator: delivered.
      expect(await postWebhook(`http://localhost:${port}/hook`, {}, '{}', { guard: new EgressGuard(['127.0.0.0/8', '::1/128']), accountId: 'acc_1', deadlineMs: 2000 })).toBe(200);
      expect(requests).toBe(1);
    } finally {
      receiver.close();
    }
  });

  it('closes the connection once the status is in: a receiver that dribbles its body holds no socket', async () => {
    let closed = false;
    const receiver = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('x');
      // Never ends: one more byte every 100 ms, so the socket never goes idle either.
      const drip = setInterval(() => response.write('x'), 100);
      response.on('close', () => {
        clearInterval(drip);
        closed = true;
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      expect(await postWebhook(`http://127.0.0.1:${port}/hook`, {}, '{}', { guard: new EgressGuard(['127.0.0.0/8']), accountId: 'acc_1', deadlineMs: 60_000 })).toBe(200);
      await eventually(() => closed, { what: 'the receiver seeing its connection closed', timeoutMs: 5_000 });
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});
