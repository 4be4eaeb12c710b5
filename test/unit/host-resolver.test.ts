/**
 * Caller-supplied host names are resolved off the process's shared getaddrinfo queue, with a
 * deadline and a cap per account; a webhook attempt has a total deadline. The "DNS server" here
 * is a UDP socket on loopback that reads every query and never answers.
 */
import { createSocket, type Socket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EgressGuard } from '../../server/events/egress-guard.js';
import { HostResolver, parseHosts } from '../../server/events/host-resolver.js';
import { postWebhook } from '../../server/events/webhook-post.js';

describe('host names of webhook URLs', () => {
  let silent: Socket;
  let queries = 0;
  let server = '';
  beforeAll(async () => {
    silent = createSocket('udp4');
    silent.on('message', () => queries++);
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    server = `127.0.0.1:${silent.address().port}`;
  });
  afterAll(() => silent.close());

  const hostsDir = mkdtempSync(join(tmpdir(), 'hosts-'));
  const hostsFile = join(hostsDir, 'hosts');
  writeFileSync(hostsFile, '# test hosts\n127.0.0.1 localhost receiver.test # the receiver\n::1 localhost\n');
  const resolver = (deadlineMs: number) => new HostResolver({ servers: [server], timeoutMs: 100, tries: 1, deadlineMs, perAccount: 2, total: 3, hostsFile });

  it('gives up on a name whose DNS never answers, after the deadline, with a clear reason', async () => {
    const before = queries;
    const verdict = await new EgressGuard([], resolver(400)).check('http://hook.silent.example/h', 'acc_a');
    expect(verdict).toEqual({ ok: false, why: 'host hook.silent.example did not resolve within 400 ms' });
    expect(queries).toBeGreaterThan(before); // asked of the configured server, not of getaddrinfo
  });

  it('caps lookups in flight per account and in all; hosts-file names and IP literals need no slot', async () => {
    const names = resolver(1500);
    const pending = [names.resolve('a.silent.example', 'acc_a'), names.resolve('b.silent.example', 'acc_a')];
    await expect(names.resolve('c.silent.example', 'acc_a')).rejects.toThrow(/too many host name lookups in flight \(at most 2 per account, 3 in all\)/);
    pending.push(names.resolve('d.silent.example', 'acc_b'));
    await expect(names.resolve('e.silent.example', 'acc_c')).rejects.toThrow(/too many/);
    // Meanwhile the hosts file and the process's own getaddrinfo lookups are answered.
    expect(await names.resolve('receiver.test', 'acc_a')).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await names.resolve('LOCALHOST', 'acc_a')).toEqual([{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }]);
    expect(await names.resolve('::1', 'acc_a')).toEqual([{ address: '::1', family: 6 }]);
    expect((await lookup('localhost')).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    for (const outcome of await Promise.allSettled(pending)) expect(outcome.status).toBe('rejected');
    // The slots are free again.
    await expect(names.resolve('f.silent.example', 'acc_a')).rejects.toThrow(/did not resolve within 1500 ms/);
  });

  it('fails a delivery whose host does not resolve in time (it is retried like any failed attempt)', async () => {
    const guard = new EgressGuard(['127.0.0.0/8'], resolver(300));
    await expect(postWebhook('http://hook.silent.example/h', {}, '{}', { guard, accountId: 'acc_a', deadlineMs: 5000 })).rejects.toThrow(/did not resolve within 300 ms/);
  });

  it('delivers to a hosts-file name', async () => {
    const receiver = createHttpServer((request, response) => request.resume().on('end', () => response.end()));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      const guard = new EgressGuard(['127.0.0.0/8'], resolver(300));
      expect(await postWebhook(`http://receiver.test:${port}/h`, {}, '{}', { guard, accountId: 'acc_a', deadlineMs: 5000 })).toBe(200);
    } finally {
      receiver.close();
    }
  });

  it('reads the hosts file again after its 30 s, however the wall clock steps', async () => {
    const file = join(hostsDir, 'stepped-hosts');
    writeFileSync(file, '127.0.0.2 stepped.test\n');
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    try {
      const names = new HostResolver({ servers: [server], timeoutMs: 100, tries: 1, deadlineMs: 500, perAccount: 2, total: 3, hostsFile: file });
      expect(await names.resolve('stepped.test', 'acc_a')).toEqual([{ address: '127.0.0.2', family: 4 }]);
      writeFileSync(file, '127.0.0.3 stepped.test\n');
      // The wall clock stepped back an hour (an NTP correction), then 31 s pass.
      vi.setSystemTime(Date.now() - 3_600_000);
      vi.advanceTimersByTime(31_000);
      expect(await names.resolve('stepped.test', 'acc_a')).toEqual([{ address: '127.0.0.3', family: 4 }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('parses a hosts file', () => {
    const hosts = parseHosts('10.0.0.1 a b\n#127.0.0.1 c\nnot-an-ip d\n10.0.0.2 A\n');
    expect(hosts.get('a')).toEqual([{ address: '10.0.0.1', family: 4 }, { address: '10.0.0.2', family: 4 }]);
    expect(hosts.has('c') || hosts.has('d')).toBe(false);
  });
});

describe('a webhook attempt', () => {
  it('ends at its deadline although the receiver keeps sending a header line at a time', async () => {
    const receiver = createTcpServer((socket) => {
      socket.on('data', () => {}).on('error', () => {});
      socket.write('HTTP/1.1 200 OK\r\n');
      const drip = setInterval(() => socket.write('X-A: b\r\n'), 50);
      socket.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      const guard = new EgressGuard(['127.0.0.0/8']);
      await expect(postWebhook(`http://127.0.0.1:${port}/h`, {}, '{}', { guard, accountId: 'acc_a', deadlineMs: 500 })).rejects.toThrow(/no answer within 500 ms/);
    } finally {
      receiver.close();
    }
  });
});
