/**
 * Revocation reaches open streams: a revoked, expired or disabled token's event stream and log
 * follow end within a second, as do a disabled account's; each account holds a capped number of
 * each. Also the token revoke rule and the scope a subscription needs.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/http.js';
import { LOG_READS_PER_ACCOUNT } from '../../server/http/logs/log-handlers.js';
import { TEST_ADMIN, TEST_BOOTSTRAP_TOKEN, useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

/** Open a long response and learn when the server ends it. */
async function openStream(url: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(response.status).toBe(200);
  const ended = (async () => {
    try {
      for await (const _chunk of response.body!) {
        // Drain until the server ends it.
      }
    } catch {
      // Closed by this side.
    }
    return performance.now();
  })();
  return { ended, close: () => controller.abort() };
}

/**
 * Milliseconds from `act`'s answer (the revocation in effect) until the stream ends, negative if
 * it ended before that answer; rejects if not within 5 s. Counted from the answer, not from before
 * the request: on a loaded machine the request's own round trip took a good part of the second.
 */
async function msUntilEnd(stream: { ended: Promise<number> }, act: () => Promise<unknown>): Promise<number> {
  await act();
  const start = performance.now();
  const ended = await Promise.race([stream.ended, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('stream still open after 5 s')), 5000))]);
  return ended - start;
}

describe('streams end when their token or account stops authenticating', () => {
  let clock = Date.now();
  const service = useService(
    { runtime: 'simulated', limits: { streams: { events: 2, logs: 2, artifacts: 2 }, subscriptions: 3 } },
    { now: () => clock },
  );
  const mint = async (scopes: string[], token?: string, expiresAfter?: string) => {
    const minted = await service.call('POST', '/token', {
      ...(token ? { token } : {}),
      body: { name: 'stream', scopes, ...(expiresAfter ? { expires_after: expiresAfter } : {}) },
    });
    expect(minted.status).toBe(201);
    return minted.json as { id: string; token: string };
  };

  it('ends an event stream and a log follow within a second of their token being revoked', async () => {
    await service.call('POST', '/session', { body: { id: 'followed', location: 'local-a', image: 'echo' } });
    await waitForStatus(service.call, 'followed', ['running']);
    const token = await mint(['session:read', 'logs:read']);
    const events = await openStream(`${service.running.url}/events`, token.token);
    const logs = await openStream(`${service.running.url}/logs?id=followed&follow=true`, token.token);
    const took = await msUntilEnd(events, () => service.call('DELETE', `/token/${token.id}`));
    expect(took).toBeLessThan(1000);
    await logs.ended;
  });

  it('ends them when the token expires', async () => {
    const token = await mint(['session:read'], undefined, '1m');
    const events = await openStream(`${service.running.url}/events`, token.token);
    const took = await msUntilEnd(events, async () => {
      clock += 61_000;
    });
    expect(took).toBeLessThan(1000);
  });

  it("ends them when the account is disabled (and pauses nothing else's)", async () => {
    const other = await service.running.service.onboard({ name: 'Disabled Studio', quotaMinutes: 10, operator: false });
    const events = await openStream(`${service.running.url}/events`, other.token);
    const mine = await openStream(`${service.running.url}/events`, service.running.token);
    const signedIn = await service.call('POST', '/admin/api/auth', { token: null, body: TEST_ADMIN });
    const panel = { token: null, headers: { Cookie: signedIn.headers.get('set-cookie')!.split(';')[0]!, 'X-CSRF-Token': signedIn.json.csrf_token } };
    try {
      const took = await msUntilEnd(events, () => service.call('PATCH', `/admin/api/user/${other.accountId}`, { ...panel, body: { disabled: true } }));
      expect(took).toBeLessThan(1000);
      const stillOpen = await Promise.race([mine.ended.then(() => false), new Promise((resolve) => setTimeout(() => resolve(true), 600))]);
      expect(stillOpen).toBe(true);
    } finally {
      // Else it holds one of the account's two event streams, and the next test fails on that.
      mine.close();
    }
  });

  it('caps open event streams and log follows per account (429 with Retry-After)', async () => {
    const token = await mint(['session:read', 'logs:read']);
    const open = [await openStream(`${service.running.url}/events`, token.token), await openStream(`${service.running.url}/events`, token.token)];
    const third = await service.call('GET', '/events', { token: token.token });
    expectError(third, 429, 'TOO_MANY_REQUESTS', '/events');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await service.call('POST', '/session', { body: { id: 'capped', location: 'local-a', image: 'echo' } });
    await waitForStatus(service.call, 'capped', ['running']);
    const follows = [
      await openStream(`${service.running.url}/logs?id=capped&follow=true`, token.token),
      await openStream(`${service.running.url}/logs?id=capped&follow=true`, token.token),
    ];
    expectError(await service.call('GET', '/logs?id=capped&follow=true', { token: token.token }), 429, 'TOO_MANY_REQUESTS', '/logs');
    // Reading without following is not held open, so not capped.
    expect((await service.call('GET', '/logs?id=capped', { token: token.token })).status).toBe(200);
    await service.call('DELETE', `/token/${token.id}`);
    await Promise.all([...open, ...follows].map((s) => s.ended));
  });
});

describe('what no stream may hold for good', () => {
  const service = useService({ runtime: 'simulated', limits: { streams: { events: 2, logs: LOG_READS_PER_ACCOUNT, artifacts: 2 }, subscriptions: 3 } });

  it('answers HEAD with 405 (not in the spec), and a HEAD holds no stream', async () => {
    await service.call('POST', '/session', { body: { id: 'headed', location: 'local-a', image: 'echo' } });
    await waitForStatus(service.call, 'headed', ['running']);
    for (let i = 0; i < 4; i++) {
      for (const path of ['/events', '/logs?id=headed&follow=true']) {
        const head = await service.call('HEAD', path);
        expect(head.status).toBe(405);
        expect(head.headers.get('allow')).toBe('GET');
      }
    }
    // Both event streams the account may hold are still its own to open.
    const open = [await openStream(`${service.running.url}/events`, TEST_BOOTSTRAP_TOKEN), await openStream(`${service.running.url}/events`, TEST_BOOTSTRAP_TOKEN)];
    for (const stream of open) stream.close();
    await Promise.all(open.map((s) => s.ended));
  });

  it("answers a log read while the account's follows are all open (a follow takes no read slot)", async () => {
    await service.call('POST', '/session', { body: { id: 'followed-full', location: 'local-a', image: 'echo' } });
    await waitForStatus(service.call, 'followed-full', ['running']);
    const follows = [];
    for (let i = 0; i < LOG_READS_PER_ACCOUNT; i++) follows.push(await openStream(`${service.running.url}/logs?id=followed-full&follow=true`, TEST_BOOTSTRAP_TOKEN));
    // Before, the eight follows held every read slot for as long as the session lived: this read was never answered.
    expect((await service.call('GET', '/logs?id=followed-full')).status).toBe(200);
    for (const follow of follows) follow.close();
    await Promise.all(follows.map((s) => s.ended));
  });
});

describe('token revoke rule, subscription scope and cap', () => {
  const service = useService({ runtime: 'simulated', limits: { streams: { events: 2, logs: 2, artifacts: 2 }, subscriptions: 3 } });
  const mint = async (scopes: string[], token?: string) => {
    const minted = await service.call('POST', '/token', { ...(token ? { token } : {}), body: { name: 'rule', scopes } });
    expect(minted.status).toBe(201);
    return minted.json as { id: string; token: string };
  };

  it('lets a token revoke itself and what it minted (transitively), root tokens anything, and no one else', async () => {
    const parent = await mint(['token:write', 'session:read']);
    const child = await mint(['token:write'], parent.token);
    const grandchild = await mint(['token:write'], child.token);
    const sibling = await mint(['token:write']);
    // Not its issuer, not a token it minted: as if unknown.
    expectError(await service.call('DELETE', `/token/${parent.id}`, { token: sibling.token }), 404, 'RESOURCE_NOT_FOUND', `/token/${parent.id}`);
    expectError(await service.call('DELETE', `/token/${parent.id}`, { token: child.token }), 404, 'RESOURCE_NOT_FOUND', `/token/${parent.id}`);
    expect((await service.call('DELETE', `/token/${grandchild.id}`, { token: parent.token })).status).toBe(204);
    expect((await service.call('DELETE', `/token/${child.id}`, { token: child.token })).status).toBe(204);
    // The root (bootstrap) token revokes any.
    expect((await service.call('DELETE', `/token/${sibling.id}`)).status).toBe(204);
    expect((await service.call('GET', '/session', { token: parent.token })).status).toBe(200);
  });

  it('caps subscriptions per account (409), counting only live ones', async () => {
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = await service.call('POST', '/subscription', { body: { url: `http://127.0.0.1:9/hook-${i}` } });
      expect(result.status).toBe(201);
      created.push(result.json.id);
    }
    const over = await service.call('POST', '/subscription', { body: { url: 'http://127.0.0.1:9/one-more' } });
    expectError(over, 409, 'CONFLICT', '/subscription');
    expect(over.json.details).toMatch(/3 subscriptions/);
    await service.call('DELETE', `/subscription/${created[0]}`);
    expect((await service.call('POST', '/subscription', { body: { url: 'http://127.0.0.1:9/again' } })).status).toBe(201);
  });

  it('needs session:read as well as events:write to subscribe (401 with events:write alone)', async () => {
    const eventsOnly = await mint(['events:write']);
    const result = await service.call('POST', '/subscription', { token: eventsOnly.token, body: { url: 'http://127.0.0.1:9/hook' } });
    expectError(result, 401, 'UNAUTHORIZED', '/subscription');
    expect(result.json.details).toBe('token lacks scope session:read');
  });
});

describe('the pace of new event streams', () => {
  const service = useService({ runtime: 'simulated', limits: { streams: { events: 2, logs: 2, artifacts: 2 }, subscriptions: 3 } });
  const mint = async (scopes: string[]) => (await service.call('POST', '/token', { body: { name: 'pace', scopes } })).json as { id: string; token: string };

  it('limits how fast an account opens event streams: twice its cap in a burst, then one a second (429 with Retry-After)', async () => {
    // Each new stream serializes a snapshot of the account's live sessions: a reconnect loop held the event loop.
    const token = await mint(['session:read']);
    for (let i = 0; i < 4; i++) {
      const stream = await openStream(`${service.running.url}/events`, token.token);
      stream.close();
      await stream.ended;
    }
    const refused = await service.call('GET', '/events', { token: token.token });
    expectError(refused, 429, 'TOO_MANY_REQUESTS', '/events');
    expect(refused.json.details).toMatch(/at most 1 a second/);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    const again = await openStream(`${service.running.url}/events`, token.token);
    again.close();
    await again.ended;
    await service.call('DELETE', `/token/${token.id}`);
  });
});
