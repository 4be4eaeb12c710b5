import { createServer, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signature } from '../../server/events/webhooks.js';
import { eventually } from '../support/eventually.mjs';
import { openEventStream } from '../support/events.js';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

const statuses = (events: { data: string; event?: string }[], id: string) =>
  events.filter((e) => e.event === 'session').map((e) => JSON.parse(e.data)).filter((e) => e.session.id === id).map((e) => e.status);

describe('session events', () => {
  const service = useService({ runtime: 'simulated' });

  it('streams created, running, draining, shuttingdown, exited for a stopped session', async () => {
    const stream = await openEventStream(service.running.url, service.running.token);
    await service.call('POST', '/session', { body: { id: 'ev-1', location: 'local-a', image: 'echo' } });
    await stream.waitFor((events) => statuses(events, 'ev-1').includes('running'));
    await service.call('DELETE', '/session/ev-1');
    const events = await stream.waitFor((all) => statuses(all, 'ev-1').includes('exited'));
    expect(statuses(events, 'ev-1')).toEqual(['created', 'running', 'draining', 'shuttingdown', 'exited']);
    const ids = events.filter((e) => e.event === 'session').map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const last = JSON.parse(events.at(-1)!.data);
    expect(last).toMatchObject({ status: 'exited', previous: 'shuttingdown', session: { id: 'ev-1', end_reason: 'stopped' } });
    stream.close();
  });

  it('starts a new stream with a snapshot of the live sessions', async () => {
    await service.call('POST', '/session', { body: { id: 'ev-live', location: 'local-b', image: 'echo' } });
    await waitForStatus(service.call, 'ev-live', ['running']);
    const stream = await openEventStream(service.running.url, service.running.token);
    const events = await stream.waitFor((all) => all.some((e) => e.event === 'snapshot'));
    const snapshot = JSON.parse(events.find((e) => e.event === 'snapshot')!.data);
    expect(snapshot).toMatchObject({ status: 'running', session: { id: 'ev-live' } });
    stream.close();
    await service.call('DELETE', '/session/ev-live');
  });

  it('replays what a client missed when it reconnects with Last-Event-ID', async () => {
    const first = await openEventStream(service.running.url, service.running.token);
    await service.call('POST', '/session', { body: { id: 'ev-2', location: 'local-a', image: 'echo' } });
    const seen = await first.waitFor((all) => statuses(all, 'ev-2').includes('created'));
    const lastId = seen.filter((e) => e.event === 'session').at(-1)!.id!;
    first.close();

    // While away: it becomes running, then is stopped.
    await waitForStatus(service.call, 'ev-2', ['running']);
    await service.call('DELETE', '/session/ev-2');
    await waitForStatus(service.call, 'ev-2', ['exited']);

    const again = await openEventStream(service.running.url, service.running.token, lastId);
    const missed = await again.waitFor((all) => statuses(all, 'ev-2').includes('exited'));
    expect(statuses(missed, 'ev-2')).toEqual(['running', 'draining', 'shuttingdown', 'exited']);
    expect(missed.some((e) => e.event === 'snapshot')).toBe(false);
    again.close();
  });

  it('answers a Last-Event-ID it never issued with a fresh snapshot, then live events', async () => {
    await service.call('POST', '/session', { body: { id: 'ev-future', location: 'local-a', image: 'echo' } });
    await waitForStatus(service.call, 'ev-future', ['running']);
    const stream = await openEventStream(service.running.url, service.running.token, '999999999');
    await stream.waitFor((all) => all.some((e) => e.event === 'snapshot' && JSON.parse(e.data).session.id === 'ev-future'));
    await service.call('DELETE', '/session/ev-future');
    await stream.waitFor((all) => statuses(all, 'ev-future').includes('exited'));
    stream.close();
  });

  it('refuses a malformed Last-Event-ID with 422', async () => {
    expectError(await service.call('GET', '/events', { headers: { 'Last-Event-ID': 'yesterday' } }), 422, 'INVALID_REQUEST', '/events');
  });
});

describe('webhook subscriptions', () => {
  const service = useService({ runtime: 'simulated', webhookBackoffMs: 50 });
  const received: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  let failuresLeft = 0;
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      if (failuresLeft > 0) {
        failuresLeft--;
        response.writeHead(503).end();
      } else {
        response.writeHead(200).end('ok');
      }
    });
  });
  let hookUrl = '';

  beforeAll(async () => {
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  });
  afterAll(() => {
    receiver.close();
  });

  const waitForReceived = (count: number) => eventually(() => received.length, { until: (n) => n >= count, timeoutMs: 10_000, what: `${count} deliveries` });

  it('delivers each state change as a signed POST that the receiver can verify', async () => {
    const created = await service.call('POST', '/subscription', { body: { url: hookUrl } });
    expect(created.status).toBe(201);
    const secret = created.json.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect((await service.call('GET', '/subscription')).json.subscriptions).toEqual([
      { id: created.json.id, url: hookUrl, created: created.json.created },
    ]);

    await service.call('POST', '/session', { body: { id: 'wh-1', location: 'local-a', image: 'echo' } });
    await waitForStatus(service.call, 'wh-1', ['running']);
    await service.call('DELETE', '/session/wh-1');
    await waitForReceived(5);

    const bodies = received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.status)).toEqual(['created', 'running', 'draining', 'shuttingdown', 'exited']);
    for (const { headers, body } of received) {
      const header = String(headers['webhook-signature']);
      const t = Number(/t=(\d+)/.exec(header)![1]);
      expect(Math.abs(Date.now() / 1000 - t)).toBeLessThan(300);
      expect(header).toBe(signature(secret, t, body));
      expect(signature('whsec_wrong', t, body)).not.toBe(header);
    }
  });

  it('retries a failing receiver with backoff and logs every attempt', async () => {
    received.length = 0;
    const subscription = (await service.call('GET', '/subscription')).json.subscriptions[0];
    failuresLeft = 2;
    await service.call('POST', '/session', { body: { id: 'wh-2', location: 'local-a', image: 'echo' } });
    await waitForReceived(3);
    expect(received.slice(0, 3).map((r) => JSON.parse(r.body).status)).toEqual(['created', 'created', 'created']);

    // The receiver has the third POST before its answer is back and recorded: wait for the log to have it.
    const deliveriesOf = async (eventId: string) =>
      ((await service.call('GET', `/subscription/${subscription.id}/delivery`)).json.deliveries as { event_id: string; attempt: number; ok: boolean; status_code: number }[]).filter((d) => d.event_id === eventId);
    const forEvent = await eventually(() => deliveriesOf(JSON.parse(received[0]!.body).id), { until: (logged) => logged.length >= 3, what: 'the three attempts logged' });
    expect(forEvent.map((d: { attempt: number; ok: boolean; status_code: number }) => [d.attempt, d.ok, d.status_code])).toEqual([
      [3, true, 200],
      [2, false, 503],
      [1, false, 503],
    ]);
    await service.call('DELETE', '/session/wh-2');
  });

  it('stops deliveries when the subscription is deleted, and answers 404 for it afterwards', async () => {
    const subscription = (await service.call('GET', '/subscription')).json.subscriptions[0];
    expect((await service.call('DELETE', `/subscription/${subscription.id}`)).status).toBe(204);
    expectError(await service.call('DELETE', `/subscription/${subscription.id}`), 404, 'RESOURCE_NOT_FOUND', `/subscription/${subscription.id}`);
    expectError(await service.call('GET', `/subscription/${subscription.id}/delivery`), 404, 'RESOURCE_NOT_FOUND', `/subscription/${subscription.id}/delivery`);
    // A second subscription is the witness: once it has the session's events, the deleted one would have had them too.
    const witness = await service.call('POST', '/subscription', { body: { url: `${hookUrl}?witness` } });
    await service.call('POST', '/session', { body: { id: 'wh-3', location: 'local-a', image: 'echo' } });
    const toWitness = () => received.filter((r) => r.url.endsWith('?witness')).map((r) => JSON.parse(r.body));
    await eventually(() => toWitness().some((e) => e.session.id === 'wh-3' && e.status === 'running'), { what: 'the witness seeing wh-3 run' });
    // None of the events made after the deletion reached the deleted subscription (a delivery of an
    // earlier event already under way when it was deleted may still land: it is not counted).
    const toDeleted = received.filter((r) => !r.url.endsWith('?witness')).map((r) => JSON.parse(r.body));
    expect(toDeleted.filter((e) => e.session.id === 'wh-3')).toEqual([]);
    await service.call('DELETE', `/subscription/${witness.json.id}`);
  });

  it('refuses a subscription URL that is not http(s)', async () => {
    expectError(await service.call('POST', '/subscription', { body: { url: 'ftp://example.com/x' } }), 422, 'INVALID_REQUEST', '/subscription');
  });
});

describe('registry push', () => {
  const service = useService({ runtime: 'simulated' });

  it('registers a pushed tag that a following start can use', async () => {
    const body = { id: 'tagged', location: 'local-a', image: 'echo', version: 'v1.4.2' };
    expectError(await service.call('POST', '/session', { body }), 404, 'RESOURCE_NOT_FOUND', '/session');
    const push = { push_data: { tag: 'v1.4.2', pusher: 'ci' }, repository: { repo_name: 'studio/echo', namespace: 'studio' } };
    const registered = await service.call('POST', '/webhook/repohost', { body: push });
    expect(registered.status).toBe(202);
    expect(registered.json).toEqual({ image: 'echo', tag: 'v1.4.2' });
    const started = await service.call('POST', '/session', { body });
    expect(started.status).toBe(201);
    expect(started.json.tag).toBe('v1.4.2');
  });

  it('answers 404 for an unknown image and 422 for a malformed payload', async () => {
    expectError(
      await service.call('POST', '/webhook/repohost', { body: { push_data: { tag: 'x' }, repository: { repo_name: 'studio/doom' } } }),
      404,
      'RESOURCE_NOT_FOUND',
      '/webhook/repohost',
    );
    for (const body of [{ push_data: {}, repository: { repo_name: 'a/echo' } }, { repository: { repo_name: 'a/echo' } }, { push_data: { tag: '../x' }, repository: { repo_name: 'a/echo' } }]) {
      expectError(await service.call('POST', '/webhook/repohost', { body }), 422, 'INVALID_REQUEST', '/webhook/repohost');
    }
  });
});
