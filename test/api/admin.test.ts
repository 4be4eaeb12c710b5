/**
 * The admin panel's API over real HTTP, every response checked against the spec: sign-in
 * (wrong password says nothing about which field, attempts limited), cookie sessions, CSRF on
 * every change, bearer tokens refused, and each operation's documented answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { caller, expectError, type CallOptions } from '../support/http.js';
import { startService, TEST_ADMIN, type RunningService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

describe('admin API', () => {
  const contract = contractFetch();
  let running: RunningService;
  let call: ReturnType<typeof caller>;
  let cookie = '';
  let csrf = '';
  /** A panel call: the session cookie, the CSRF token, no bearer token. */
  const panel = (method: string, path: string, options: CallOptions & { csrf?: string | null } = {}) =>
    call(method, path, {
      ...options,
      token: null,
      headers: {
        Cookie: cookie,
        ...(options.csrf === null ? {} : { 'X-CSRF-Token': options.csrf ?? csrf }),
        ...options.headers,
      },
    });

  beforeAll(async () => {
    running = await startService({ runtime: 'simulated' });
    call = caller(running.url, running.token, contract);
    const signedIn = await call('POST', '/admin/api/auth', { token: null, body: TEST_ADMIN });
    expect(signedIn.status).toBe(200);
    cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    csrf = signedIn.json.csrf_token;
  });
  afterAll(async () => {
    await running.close();
    expect(contract.violations).toEqual([]);
  });

  it('sets an HttpOnly, SameSite=Strict session cookie scoped to /admin (Secure behind TLS)', async () => {
    const response = await call('POST', '/admin/api/auth', { token: null, body: TEST_ADMIN });
    const setCookie = response.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^gsh_admin=[A-Za-z0-9_-]{43}; Path=\/admin; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
    const behindTls = await call('POST', '/admin/api/auth', { token: null, body: TEST_ADMIN, headers: { 'X-Forwarded-Proto': 'https' } });
    expect(behindTls.headers.get('set-cookie')).toMatch(/; Secure$/);
  });

  it('refuses a wrong password and an unknown email alike, without saying which', async () => {
    const wrongPassword = await call('POST', '/admin/api/auth', { token: null, body: { ...TEST_ADMIN, password: 'nope-nope-nope' } });
    const unknownEmail = await call('POST', '/admin/api/auth', { token: null, body: { email: 'who@example.com', password: TEST_ADMIN.password } });
    for (const result of [wrongPassword, unknownEmail]) {
      expectError(result, 401, 'UNAUTHORIZED', '/admin/api/auth');
      expect(result.json.details).toBe('wrong email or password');
      expect(result.headers.get('set-cookie')).toBeNull();
    }
    expect((await call('POST', '/admin/api/auth', { token: null, body: { email: 'x@y' } })).status).toBe(422);
    expect((await call('POST', '/admin/api/auth', { token: null, body: 'email', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
    expect((await call('POST', '/admin/api/auth', { token: null, body: { ...TEST_ADMIN, password: 'x'.repeat(1_100_000) } })).status).toBe(413);
  });

  it('caps an account\'s live sessions: set in the admin API, shown in GET /account, a start past it answers 420 saying why', async () => {
    const { accountId, token } = await running.service.onboard({ name: 'Capped Studio', quotaMinutes: 100, operator: false });
    const start = (id: string) => call('POST', '/session', { token, body: { id, location: 'local-a', image: 'echo' } });
    expect((await panel('PATCH', `/admin/api/user/${accountId}`, { body: { max_sessions: 1 } })).json.max_sessions).toBe(1);
    expect((await call('GET', '/account', { token })).json.max_sessions).toBe(1);
    expect((await start('capped-1')).status).toBe(201);
    const refused = await start('capped-2');
    expect(refused.status).toBe(420);
    expect(refused.json.details).toMatch(/^account_session_limit: .*1 live sessions/);
    // Once the live one ends, a start fits again.
    expect((await call('DELETE', '/session/capped-1', { token })).status).toBe(204);
    await waitForStatus((method, path, options) => call(method, path, { ...options, token }), 'capped-1', ['exited', 'dead']);
    expect((await start('capped-3')).status).toBe(201);
    expect((await panel('PATCH', `/admin/api/user/${accountId}`, { body: { max_sessions: null } })).json.max_sessions).toBeNull();
    expect((await call('GET', '/account', { token })).json.max_sessions).toBeNull();
    expect((await start('capped-4')).status).toBe(201);
  });

  it('answers 401 without a session, and to bearer tokens (they are not panel credentials)', async () => {
    const none = await call('GET', '/admin/api/user', { token: null });
    expectError(none, 401, 'UNAUTHORIZED', '/admin/api/user');
    expect(none.json.details).toMatch(/not signed in/);
    const bearer = await call('GET', '/admin/api/user'); // the bootstrap operator account's token, every scope
    expect(bearer.status).toBe(401);
    const forged = await call('GET', '/admin/api/user', { token: null, headers: { Cookie: 'gsh_admin=forged' } });
    expect(forged.status).toBe(401);
  });

  it('refuses a state change without the CSRF token, or with a wrong one', async () => {
    const body = { name: 'No CSRF', email: 'nocsrf@example.com', quota_minutes: 1 };
    const without = await panel('POST', '/admin/api/user', { body, csrf: null });
    expectError(without, 401, 'UNAUTHORIZED', '/admin/api/user');
    expect(without.json.details).toBe('missing or wrong X-CSRF-Token header');
    expect((await panel('POST', '/admin/api/user', { body, csrf: 'x'.repeat(43) })).status).toBe(401);
    // Nothing was created.
    expect((await panel('GET', '/admin/api/user?q=nocsrf')).json.users).toEqual([]);
  });

  it('refuses a read with the cookie alone: a game server on another port of the host is sent it too', async () => {
    // Browsers send a host's cookies to every port of it (test/browser/admin-panel.test.ts shows
    // Chromium doing so): the cookie alone read the CSRF token, and with it the whole panel.
    for (const path of ['/admin/api/auth', '/admin/api/user', '/admin/api/location', '/admin/api/overview']) {
      const cookieOnly = await panel('GET', path, { csrf: null });
      expectError(cookieOnly, 401, 'UNAUTHORIZED', path);
      expect(cookieOnly.json.details).toBe('missing or wrong X-CSRF-Token header');
      expect(JSON.stringify(cookieOnly.json)).not.toContain(csrf);
    }
    expect((await panel('GET', '/admin/api/auth', { csrf: 'x'.repeat(43) })).status).toBe(401);
    expect((await panel('GET', '/admin/api/auth')).json).toMatchObject({ email: TEST_ADMIN.email, csrf_token: csrf });
  });

  it('finds its session among gsh_admin cookies another page of the host set before it', async () => {
    // A page on another port of the host can set cookies for it on longer paths, sent first.
    const other = await call('POST', '/admin/api/auth', { token: null, body: TEST_ADMIN });
    const otherCookie = other.headers.get('set-cookie')!.split(';')[0]!;
    for (const tossed of [`gsh_admin=${'A'.repeat(43)}`, otherCookie, 'gsh_admin=junk']) {
      const read = await panel('GET', '/admin/api/auth', { headers: { Cookie: `${tossed}; ${cookie}` } });
      expect(read.status).toBe(200);
      expect(read.json.csrf_token).toBe(csrf);
    }
    // However many well-shaped ones were planted first (each cookie looked up was a store query,
    // so only the first 8 were: 8 planted ones signed the operator out for as long as they lived).
    const planted = Array.from({ length: 40 }, (_, i) => `gsh_admin=${String(i).padStart(43, 'B')}`).join('; ');
    const found = await panel('GET', '/admin/api/auth', { headers: { Cookie: `${planted}; ${otherCookie}; ${cookie}` } });
    expect(found.status).toBe(200);
    expect(found.json.csrf_token).toBe(csrf);
    // Another session's cookie with this one's CSRF token is still no credential.
    expect((await panel('GET', '/admin/api/auth', { headers: { Cookie: otherCookie } })).json.details).toBe('missing or wrong X-CSRF-Token header');
  });

  it('onboards, pages, updates and disables accounts', async () => {
    const created = [];
    for (let i = 0; i < 3; i++) {
      const result = await panel('POST', '/admin/api/user', { body: { name: `Paging ${i}`, email: `paging${i}@example.com`, quota_minutes: 10 + i } });
      expect(result.status).toBe(201);
      created.push(result.json);
    }
    expect((await panel('POST', '/admin/api/user', { body: { name: 'Dup', email: 'PAGING0@example.com', quota_minutes: 1 } })).status).toBe(409);
    const badGrant = await panel('POST', '/admin/api/user', { body: { name: 'X', email: 'x@example.com', quota_minutes: 1, locations: ['mars'] } });
    expectError(badGrant, 422, 'INVALID_REQUEST', '/admin/api/user');
    expect((await panel('POST', '/admin/api/user', { body: { name: 'X', email: 'x@example.com' } })).status).toBe(422);
    expect((await panel('POST', '/admin/api/user', { body: 'x', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
    expect((await panel('POST', '/admin/api/user', { body: { name: 'x'.repeat(1_100_000), email: 'x@example.com', quota_minutes: 1 } })).status).toBe(413);

    const first = await panel('GET', '/admin/api/user?q=paging&limit=2');
    expect(first.json.users.map((u: { name: string }) => u.name)).toEqual(['Paging 2', 'Paging 1']);
    const second = await panel('GET', `/admin/api/user?q=paging&limit=2&cursor=${first.json.next_cursor}`);
    expect(second.json).toMatchObject({ users: [{ name: 'Paging 0' }], next_cursor: null });
    expect((await panel('GET', '/admin/api/user?cursor=nonsense')).status).toBe(422);

    const id = created[0].id;
    const updated = await panel('PATCH', `/admin/api/user/${id}`, { body: { quota_minutes: 99, locations: ['local-b'] } });
    expect(updated.json).toMatchObject({ quota: { total: 99 }, locations: ['local-b'] });
    expect((await panel('GET', `/admin/api/user/${id}`)).json.quota.total).toBe(99);
    expect((await panel('GET', '/admin/api/user/acc_nosuch')).status).toBe(404);
    expect((await panel('PATCH', '/admin/api/user/acc_nosuch', { body: { quota_minutes: 1 } })).status).toBe(404);
    expect((await panel('PATCH', `/admin/api/user/${id}`, { body: {} })).status).toBe(422);
    expect((await panel('PATCH', `/admin/api/user/${id}`, { body: 'x', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
    expect((await panel('PATCH', `/admin/api/user/${id}`, { body: { name: 'x'.repeat(1_100_000) } })).status).toBe(413);

    // A disabled account's tokens answer 401; enabling it again restores them.
    const token = await panel('POST', `/admin/api/user/${id}/token`, { body: { name: 'reader', scopes: ['session:read'] } });
    expect((await call('GET', '/session', { token: token.json.token })).status).toBe(200);
    await panel('PATCH', `/admin/api/user/${id}`, { body: { disabled: true } });
    expect((await call('GET', '/session', { token: token.json.token })).json.details).toBe('account is disabled');
    await panel('PATCH', `/admin/api/user/${id}`, { body: { disabled: false } });
    expect((await call('GET', '/session', { token: token.json.token })).status).toBe(200);
    // Token changes the account makes through the public API are audited too, with the token as actor.
    const minted = await call('POST', '/token', { token: token.json.token, body: { name: 'api-made', scopes: ['session:read'] } });
    expect(minted.status).toBe(401); // a session:read token may not mint: nothing to audit
    const writer = await panel('POST', `/admin/api/user/${id}/token`, { body: { name: 'writer', scopes: ['token:write', 'session:read'] } });
    const apiMade = await call('POST', '/token', { token: writer.json.token, body: { name: 'api-made', scopes: ['session:read'] } });
    expect(apiMade.status).toBe(201);
    expect((await call('DELETE', `/token/${apiMade.json.id}`, { token: writer.json.token })).status).toBe(204);
    const entries = (await panel('GET', `/admin/api/user/${id}/audit`)).json.entries as { action: string; actor: string; token_id: string }[];
    expect(entries.map((e) => e.action)).toEqual(['token_deleted', 'token_created', 'token_created', 'user_enabled', 'user_disabled', 'token_created', 'user_updated', 'user_created']);
    expect(entries.slice(0, 2).map((e) => [e.actor, e.token_id])).toEqual([
      [`API token ${writer.json.id}`, apiMade.json.id],
      [`API token ${writer.json.id}`, apiMade.json.id],
    ]);
  });

  it('mints, lists, reveals, disables, enables and deletes tokens, auditing each', async () => {
    const user = (await panel('POST', '/admin/api/user', { body: { name: 'Tokens', email: 'tokens@example.com', quota_minutes: 5 } })).json;
    const base = `/admin/api/user/${user.id}/token`;
    const minted = await panel('POST', base, { body: { name: 'mm', scopes: ['session:read', 'session:start'], expires_after: '1h' } });
    expect(minted.status).toBe(201);
    const { id, token } = minted.json;
    expect(Date.parse(minted.json.expires_at) - Date.parse(minted.json.created)).toBe(3_600_000);
    expect((await panel('POST', base, { body: { name: 'bad', scopes: ['session:read'], expires_after: '1h1h' } })).status).toBe(422);
    expect((await panel('POST', base, { body: 'x', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
    expect((await panel('POST', base, { body: { name: 'x'.repeat(1_100_000), scopes: ['session:read'] } })).status).toBe(413);
    expect((await panel('POST', '/admin/api/user/acc_nosuch/token', { body: { name: 'x', scopes: ['session:read'] } })).status).toBe(404);
    // The metrics are every account's: a tenant may not hold metrics:read (422, nothing minted); the operator account may.
    const monitoring = await panel('POST', base, { body: { name: 'scraper', scopes: ['session:read', 'metrics:read'] } });
    expectError(monitoring, 422, 'INVALID_REQUEST', base);
    expect(monitoring.json.violations).toEqual([{ field: 'body.scopes', description: expect.stringMatching(/^metrics:read: only an operator account/) }]);
    const operatorAccount = running.service.bootstrapped!.accountId;
    const scraper = await panel('POST', `/admin/api/user/${operatorAccount}/token`, { body: { name: 'scraper', scopes: ['metrics:read'] } });
    expect(scraper.status).toBe(201);
    expect((await call('GET', '/metrics', { token: scraper.json.token })).status).toBe(200);

    const listed = (await panel('GET', base)).json.tokens;
    expect(listed).toEqual([expect.objectContaining({ id, token: `gsh_…${token.slice(-4)}`, status: 'active' })]);
    expect((await panel('GET', '/admin/api/user/acc_nosuch/token')).status).toBe(404);
    expect((await panel('POST', `${base}/${id}/reveal`)).json).toEqual({ id, token });
    expect((await panel('POST', `${base}/${id}/reveal`, { csrf: null })).status).toBe(401);
    expect((await panel('POST', `${base}/tok_nosuch/reveal`)).status).toBe(404);

    expect((await panel('PATCH', `${base}/${id}`, { body: { disabled: true } })).json.status).toBe('disabled');
    expect((await call('GET', '/session', { token })).json.details).toBe('token is disabled');
    expect((await panel('PATCH', `${base}/${id}`, { body: { disabled: false } })).json.status).toBe('active');
    expect((await call('GET', '/session', { token })).status).toBe(200);
    expect((await panel('PATCH', `${base}/tok_nosuch`, { body: { disabled: true } })).status).toBe(404);
    expect((await panel('PATCH', `${base}/${id}`, { body: { disabled: 'yes' } })).status).toBe(422);
    expect((await panel('PATCH', `${base}/${id}`, { body: 'x', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
    expect((await panel('PATCH', `${base}/${id}`, { body: { disabled: true, pad: 'x'.repeat(1_100_000) } })).status).toBe(413);

    expect((await panel('DELETE', `${base}/${id}`)).status).toBe(204);
    expect((await call('GET', '/session', { token })).json.details).toBe('token has been revoked');
    expect((await panel('DELETE', `${base}/${id}`)).status).toBe(404);
    expect((await panel('GET', base)).json.tokens).toEqual([]);

    const audit = (await panel('GET', `/admin/api/user/${user.id}/audit`)).json.entries;
    expect(audit.map((e: { action: string }) => e.action)).toEqual([
      'token_deleted', 'token_enabled', 'token_disabled', 'token_revealed', 'token_created', 'user_created',
    ]);
    expect(audit.every((e: { actor: string }) => e.actor === TEST_ADMIN.email)).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(token);
    expect((await panel('GET', '/admin/api/user/acc_nosuch/audit')).status).toBe(404);
  });

  it('drains a node: no new sessions, its live ones run to their end, then it says drained', async () => {
    const nodeOf = async () => (await panel('GET', '/admin/api/location')).json.locations.flatMap((l: { nodes: unknown[] }) => l.nodes).find((n: { id: string }) => n.id === 'local-a-1');
    expect(await nodeOf()).toMatchObject({ drain: 'none', health: 'up', locked: false });
    // Alone on the node (earlier tests' sessions ended), so that its last end shows.
    for (const s of (await panel('GET', '/admin/api/session?location=local-a')).json.sessions) await panel('DELETE', `/admin/api/session/${s.id}?account=${s.account}`);
    await expect.poll(async () => (await nodeOf()).used, { timeout: 15_000 }).toBe(0);
    expect((await call('POST', '/session', { body: { id: 'adm-drain', location: 'local-a', image: 'echo' } })).status).toBe(201);
    await waitForStatus(call, 'adm-drain', ['running']);
    expect((await panel('PATCH', '/admin/api/node/local-a-1', { body: { drain: true } })).json).toMatchObject({ id: 'local-a-1', drain: 'draining', locked: false });
    const refused = await call('POST', '/session', { body: { id: 'adm-drain-2', location: 'local-a', image: 'echo' } });
    expect(refused.status).toBe(420);
    expect((await call('GET', '/location')).json.locations.find((l: { id: string }) => l.id === 'local-a').status).toBe('locked');
    // The live session runs on until it ends.
    expect((await call('GET', '/session/adm-drain')).json.status).toBe('running');
    expect((await call('DELETE', '/session/adm-drain')).status).toBe(204);
    await waitForStatus(call, 'adm-drain', ['exited']);
    expect(await nodeOf()).toMatchObject({ drain: 'drained', used: 0 });
    expect((await panel('PATCH', '/admin/api/node/local-a-1', { body: { drain: false } })).json).toMatchObject({ drain: 'none' });
    expect((await call('POST', '/session', { body: { id: 'adm-drain-3', location: 'local-a', image: 'echo' } })).status).toBe(201);
    expect((await call('DELETE', '/session/adm-drain-3')).status).toBe(204);
    await waitForStatus(call, 'adm-drain-3', ['exited', 'dead']);
  });

  it('locks nodes (persisted override), lists fleet locations, sessions of every account, logs, images', async () => {
    const locked = await panel('PATCH', '/admin/api/node/local-a-1', { body: { locked: true } });
    expect(locked.json).toMatchObject({ id: 'local-a-1', locked: true });
    expect((await call('GET', '/location')).json.locations.find((l: { id: string }) => l.id === 'local-a').status).toBe('locked');
    const refused = await call('POST', '/session', { body: { id: 'adm-locked', location: 'local-a', image: 'echo' } });
    expect(refused.status).toBe(420);
    await panel('PATCH', '/admin/api/node/local-a-1', { body: { locked: false } });
    expect((await panel('PATCH', '/admin/api/node/nowhere', { body: { locked: true } })).status).toBe(404);
    expect((await panel('PATCH', '/admin/api/node/local-a-1', { body: {} })).status).toBe(422);
    expect((await panel('PATCH', '/admin/api/node/local-a-1', { body: 'x', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
    expect((await panel('PATCH', '/admin/api/node/local-a-1', { body: { locked: true, pad: 'x'.repeat(1_100_000) } })).status).toBe(413);
    expect((await panel('GET', '/admin/api/location')).json.locations.map((l: { id: string }) => l.id)).toContain('local-b');

    expect((await call('POST', '/session', { body: { id: 'adm-1', location: 'local-a', image: 'echo', labels: { a: 'b' } } })).status).toBe(201);
    const listed = await panel('GET', `/admin/api/session?account=${running.service.bootstrapped!.accountId}&location=local-a&limit=10`);
    expect(listed.json.sessions.map((s: { id: string }) => s.id)).toEqual(['adm-1']);
    expect((await panel('GET', '/admin/api/session?cursor=nonsense')).status).toBe(422);
    const logs = await panel('GET', '/admin/api/session/adm-1/logs');
    expect(logs.status).toBe(200);
    expect(logs.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await panel('GET', '/admin/api/session/nosuch/logs')).status).toBe(404);
    expect((await panel('DELETE', '/admin/api/session/adm-1')).status).toBe(204);
    await waitForStatus(call, 'adm-1', ['exited']);
    expect((await panel('DELETE', '/admin/api/session/adm-1')).status).toBe(409);
    expect((await panel('DELETE', '/admin/api/session/nosuch')).status).toBe(404);

    const images = await panel('GET', '/admin/api/image');
    expect(images.json.images[0]).toMatchObject({ name: 'echo', public: true, tags: [{ name: 'latest', source: 'fleet' }] });
  });

  it('signs out: the session stops working', async () => {
    const other = await call('POST', '/admin/api/auth', { token: null, body: TEST_ADMIN });
    const otherCookie = other.headers.get('set-cookie')!.split(';')[0]!;
    const out = await call('DELETE', '/admin/api/auth', { token: null, headers: { Cookie: otherCookie, 'X-CSRF-Token': other.json.csrf_token } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^gsh_admin=; Path=\/admin; Expires=Thu, 01 Jan 1970/);
    expect((await call('GET', '/admin/api/auth', { token: null, headers: { Cookie: otherCookie } })).status).toBe(401);
    expect((await call('DELETE', '/admin/api/auth', { token: null })).status).toBe(401);
  });

  it('limits failed sign-ins from one address: after 5, even the right password waits (429, Retry-After)', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await call('POST', '/admin/api/auth', { token: null, body: { ...TEST_ADMIN, password: `wrong-${i}` } })).status).toBe(401);
    }
    const limited = await call('POST', '/admin/api/auth', { token: null, body: TEST_ADMIN });
    expectError(limited, 429, 'TOO_MANY_REQUESTS', '/admin/api/auth');
    expect(limited.json.details).toMatch(/too many sign-in attempts/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
