import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openEventStream } from '../support/events.js';
import { expectError } from '../support/http.js';
import { histogramCount, scrape, valueOf } from '../support/prometheus.js';
import { testFleet, useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

describe('GET /metrics', () => {
  // One slot in local-a, so the second start there is a 420 (full).
  const service = useService({ webhookBackoffMs: 50 }, { fleet: testFleet((fleet) => (fleet.locations[0]!.nodes[0]!.capacity = 1)) });
  let scraper = '';
  const hooks = createServer((request, response) => request.resume().on('end', () => response.writeHead(200).end()));

  beforeAll(async () => {
    const minted = await service.call('POST', '/token', { body: { name: 'prometheus', scopes: ['metrics:read'] } });
    scraper = minted.json.token;
    hooks.listen(0, '127.0.0.1');
    await once(hooks, 'listening');
  });
  afterAll(() => {
    hooks.close();
  });

  it('needs metrics:read, and a token holding only metrics:read reads nothing else', async () => {
    const reader = (await service.call('POST', '/token', { body: { name: 'reader', scopes: ['session:read'] } })).json.token;
    const refused = await service.call('GET', '/metrics', { token: reader });
    expectError(refused, 401, 'UNAUTHORIZED', '/metrics');
    expect(refused.json.details).toMatch(/metrics:read/);
    expectError(await service.call('GET', '/session', { token: scraper }), 401, 'UNAUTHORIZED', '/session');
    expect((await service.call('GET', '/metrics', { token: scraper })).status).toBe(200);
  });

  it('counts a scripted lifecycle (start, 420, 404, stop) exactly, in the Prometheus text format', async () => {
    const port = (hooks.address() as { port: number }).port;
    expect((await service.call('POST', '/subscription', { body: { url: `http://127.0.0.1:${port}/hook` } })).status).toBe(201);
    const stream = await openEventStream(service.running.url, service.running.token);
    const before = await scrape(service.call, scraper);
    expect(valueOf(before, 'session_host_event_streams')).toBe(1);

    expect((await service.call('POST', '/session', { body: { id: 'm-1', location: 'local-a', image: 'echo' } })).status).toBe(201);
    await waitForStatus(service.call, 'm-1', ['running']);
    const running = await scrape(service.call, scraper);
    expect(valueOf(running, 'session_host_sessions', { location: 'local-a', state: 'running', image: 'echo' })).toBe(1);
    expect(valueOf(running, 'session_host_node_sessions', { location: 'local-a', node: 'local-a-1' })).toBe(1);
    expect(valueOf(running, 'session_host_node_capacity', { location: 'local-a', node: 'local-a-1' })).toBe(1);
    expect(valueOf(running, 'session_host_node_capacity', { location: 'local-b', node: 'local-b-1' })).toBe(32);

    const full = await service.call('POST', '/session', { body: { id: 'm-2', location: 'local-a', image: 'echo' } });
    expectError(full, 420, 'CAPACITY_UNAVAILABLE', '/session');
    const unknown = await service.call('POST', '/session', { body: { id: 'm-3', location: 'local-a', image: 'no-such-image' } });
    expectError(unknown, 404, 'RESOURCE_NOT_FOUND', '/session');
    expect((await service.call('DELETE', '/session/m-1')).status).toBe(204);
    await waitForStatus(service.call, 'm-1', ['exited']);
    stream.close();

    // Webhook deliveries happen in the background; everything else is counted before the answer.
    const after = await vi.waitFor(async () => {
      const families = await scrape(service.call, scraper);
      expect(valueOf(families, 'session_host_webhook_deliveries_total', { result: 'ok' })).toBe(5);
      expect(valueOf(families, 'session_host_event_streams')).toBe(0);
      return families;
    }, { timeout: 10_000, interval: 50 });

    expect(valueOf(after, 'session_host_http_requests_total', { operation: 'startSession', status: '201' })).toBe(1);
    expect(valueOf(after, 'session_host_http_requests_total', { operation: 'startSession', status: '420' })).toBe(1);
    expect(valueOf(after, 'session_host_http_requests_total', { operation: 'startSession', status: '404' })).toBe(1);
    expect(valueOf(after, 'session_host_http_requests_total', { operation: 'stopSession', status: '204' })).toBe(1);
    expect(valueOf(after, 'session_host_http_requests_total', { operation: 'getMetrics', status: '401' })).toBe(1);
    expect(histogramCount(after, 'session_host_http_request_duration_seconds', { operation: 'startSession' })).toBe(3);

    expect(valueOf(after, 'session_host_session_starts_total', { result: '201' })).toBe(1);
    expect(valueOf(after, 'session_host_session_starts_total', { result: '420_full' })).toBe(1);
    expect(valueOf(after, 'session_host_session_starts_total', { result: '404' })).toBe(1);
    expect(histogramCount(after, 'session_host_session_start_to_running_seconds', { location: 'local-a' })).toBe(1);

    // created, running, draining, shuttingdown, exited: five events, each delivered once, each with its lag.
    expect(histogramCount(after, 'session_host_webhook_delivery_lag_seconds')).toBe(5);
    expect(valueOf(after, 'session_host_runtime_events_total', { type: 'running' })).toBe(1);
    expect(valueOf(after, 'session_host_runtime_events_total', { type: 'exited' })).toBe(1);
    expect(valueOf(after, 'session_host_sessions', { location: 'local-a', state: 'running', image: 'echo' })).toBe(0);
    expect(valueOf(after, 'session_host_node_sessions', { location: 'local-a', node: 'local-a-1' })).toBe(0);
    expect(histogramCount(after, 'session_host_store_operation_duration_seconds', { operation: 'insert' })).toBe(1);

    // The bootstrap account ran m-1 for at least a second (a begun second counts).
    const account = (await service.call('GET', '/account')).json;
    expect(valueOf(after, 'session_host_account_quota_used_minutes', { account: account.id })).toBeCloseTo(account.quota.used, 6);
    expect(valueOf(after, 'session_host_account_quota_total_minutes', { account: account.id })).toBe(account.quota.total);
    expect(valueOf(after, 'session_host_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it("answers an operator account's token only: a tenant's token, even one holding metrics:read, is 401 (the metrics are every account's)", async () => {
    const { store } = service.running.service;
    const tenant = await service.running.service.onboard({ name: 'Tenant', quotaMinutes: 10, operator: false });
    // Its first token holds every scope an account may hold: metrics:read is not among them.
    const first = await service.call('GET', '/metrics', { token: tenant.token });
    expectError(first, 401, 'UNAUTHORIZED', '/metrics');
    expect(first.json.details).toMatch(/metrics:read/);
    // A tenant's token granted metrics:read before 1.4.0 (a record as the panel made it then).
    const own = (await store.tokens.findByHash(createHash('sha256').update(tenant.token).digest()))!;
    const legacy = `gsh_${'L'.repeat(40)}`;
    const { hash: _hash, ...record } = own;
    await store.tokens.insert(
      { ...record, id: 'tok_legacy_metrics', name: 'old scraper', scopes: ['metrics:read'], hint: 'LLLL' },
      { hash: createHash('sha256').update(legacy).digest(), sealed: Buffer.from('unused') },
    );
    const refused = await service.call('GET', '/metrics', { token: legacy });
    expectError(refused, 401, 'UNAUTHORIZED', '/metrics');
    expect(refused.json.details).toMatch(/operator account/);
    expect(refused.text).not.toContain('acc_');
    // The operator's scraper reads them.
    expect((await service.call('GET', '/metrics', { token: scraper })).status).toBe(200);
  });
});
