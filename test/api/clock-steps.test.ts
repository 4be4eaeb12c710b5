/**
 * Wall-clock steps of a day, injected through the `now` hook (the system clock is never touched)
 * while the service's monotonic clock runs on: no quota burnt, no ttl stretched, no webhook
 * stalled, no listing misordered.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('wall-clock steps', () => {
  let offset = 0;
  const service = useService(
    { runtime: 'simulated', webhookBackoffMs: 50 },
    { now: () => Date.now() + offset, monotonic: () => performance.now() },
  );
  const delivered: string[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const event = JSON.parse(body);
      delivered.push(`${event.session?.id ?? event.id} ${event.status}`);
      response.writeHead(200).end('ok');
    });
  });
  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
  });
  afterAll(() => {
    receiver.close();
  });

  const waitForDeliveries = (count: number) =>
    eventually(async () => delivered.length, { until: (n) => n >= count, timeoutMs: 5000, what: `${count} deliveries` });

  it('does not stall webhook deliveries until the clock catches up', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    expect((await service.call('POST', '/subscription', { body: { url } })).status).toBe(201);
    expect((await service.call('POST', '/session', { body: { id: 'before-step', location: 'local-a', image: 'echo' } })).status).toBe(201);
    await waitForStatus(service.call, 'before-step', ['running']);
    await waitForDeliveries(2);

    offset = -DAY_MS;
    expect((await service.call('POST', '/session', { body: { id: 'after-step', location: 'local-a', image: 'echo' } })).status).toBe(201);
    await waitForStatus(service.call, 'after-step', ['running']);
    // Both within seconds, not after a day.
    await waitForDeliveries(4);
    expect(delivered).toEqual(['before-step created', 'before-step running', 'after-step created', 'after-step running']);
  });

  it('burns no quota on a step forward and keeps the listing newest first after a step back', async () => {
    const usedBefore = (await service.call('GET', '/account')).json.quota.used;
    expect((await service.call('POST', '/session', { body: { id: 'runs-on', location: 'local-b', image: 'echo' } })).status).toBe(201);
    await waitForStatus(service.call, 'runs-on', ['running']);
    offset += DAY_MS;
    // Several quota ticks (every 50 ms here) after the step.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await service.call('GET', '/session/runs-on')).json.status).toBe('running');
    expect((await service.call('GET', '/account')).json.quota.used - usedBefore).toBeLessThan(0.5);

    offset -= 2 * DAY_MS;
    expect((await service.call('POST', '/session', { body: { id: 'newest', location: 'local-b', image: 'echo' } })).status).toBe(201);
    const listed = (await service.call('GET', '/session?limit=2')).json.sessions.map((s: { id: string }) => s.id);
    expect(listed).toEqual(['newest', 'runs-on']);
  });
});
