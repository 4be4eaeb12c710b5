// How the Dredd hooks provoke each documented response (SHAPE), and the few they cannot (SKIP).
const { randomUUID } = require('node:crypto');
const { ADMIN, exampleSessionOfOwnAccount, EXAMPLE_ID, api, createSubscription, createToken, eventually, fullBudgetSession, liveSession, manyPlayers, noPanelSession, notJson, ownToken, ownUser, panelCall, patchJsonBody, playerHooks, setJsonBody, setPath, signIn, startSession, state, tooLarge, unauthenticated, userToken, waitEnded, waitForStatus } = require('./fixtures.cjs');

// Single responses that cannot be provoked, with the reason.
const SKIP = {
  // Dredd would wait forever for the body to end.
  'GET /events 200': 'an endless SSE stream; the vitest SSE tests cover it',
  'GET /readyz 503': 'needs a failing store; test/api/disk-full.test.ts fills a tmpfs under the service',
  'GET /events 429': 'needs 20 streams held open; test/api/stream-revocation.test.ts covers it',
  'GET /logs 429': 'needs 20 log follows held open; test/api/stream-revocation.test.ts covers it',
  'GET /artifacts 429': 'needs 4 downloads held open; test/api/artifact-downloads.test.ts covers it',
  'GET /session 429': 'needs 4 lists of all=true held unread for 30 s; test/api/stalled-answers.test.ts covers it',
  'POST /token 409': 'needs 500 unexpired tokens; test/api/caller-bounds.test.ts covers it',
};

/** The 401 of bearer operations: each the same request without its token. */
const unauthenticatedFor = (...operations) => Object.fromEntries(operations.map((operation) => [`${operation} 401`, unauthenticated]));

// How to provoke each documented response of the implemented operations, by
// "METHOD /path status". Success responses not listed here need only the default auth.
const SHAPE = {
  ...unauthenticatedFor(
    'POST /token', 'GET /token', 'DELETE /token/{id}', 'GET /account', 'POST /session', 'GET /session',
    'GET /session/{id}', 'DELETE /session/{id}', 'GET /location', 'GET /available-location/{image}',
    'GET /tag/{region}/{image}/{version}', 'GET /logs', 'GET /artifacts', 'GET /events', 'POST /subscription',
    'GET /subscription', 'GET /subscription/{id}', 'DELETE /subscription/{id}', 'GET /subscription/{id}/delivery',
    'POST /webhook/repohost', 'GET /metrics',
  ),
  'POST /token 413': (t) => setJsonBody(t, { name: 'x'.repeat(1_100_000), scopes: ['session:read'] }),
  'POST /token 415': notJson,
  // Not a duration: the grammar allows each unit once.
  'POST /token 422': (t) => setJsonBody(t, { name: 'matchmaker', scopes: ['session:read'], expires_after: '1h1h' }),
  // The example id does not exist; revoke a token created just for this.
  'DELETE /token/{id} 204': async (t) => setPath(t, `/token/${await createToken()}`),
  'DELETE /token/{id} 404': (t) => setPath(t, '/token/tok_doesnotexist'),

  // 201 starts the example session as is; 409 then reuses its id.
  // An account onboarded in the admin panel with no quota, and a token of its own.
  'POST /session 403': async (t) => {
    const { status, body } = await panelCall('POST', '/admin/api/user', { name: 'No quota', email: `noquota-${randomUUID()}@example.com`, quota_minutes: 0 });
    if (status !== 201) throw new Error(`POST /admin/api/user answered ${status}`);
    const minted = await panelCall('POST', `/admin/api/user/${body.id}/token`, { name: 'starter', scopes: ['session:start'] });
    t.request.headers.Authorization = `Bearer ${minted.body.token}`;
    patchJsonBody(t, { id: `dredd-${randomUUID()}` });
  },
  'POST /session 404': (t) => patchJsonBody(t, { id: `dredd-${randomUUID()}`, location: 'local-z' }),
  'POST /session 413': tooLarge,
  'POST /session 415': notJson,
  // test/dredd/fleet.json's `maintenance` has only a locked node.
  'POST /session 420': (t) => patchJsonBody(t, { id: `dredd-${randomUUID()}`, location: 'maintenance' }),
  'POST /session 422': (t) => patchJsonBody(t, { id: `dredd-${randomUUID()}`, ttl: '1h1h' }),

  // Dredd serialises the deepObject examples as plain `mode=ranked&lt=8` and sends the example
  // cursor, which the server never issued (422). Send what the spec means, without the cursor, once
  // the example session is running so that status=running has it to find (checked in CHECK).
  'GET /session 200': async (t) => {
    await waitForStatus(EXAMPLE_ID, (s) => s === 'running', 'running');
    const query = new URLSearchParams({
      all: 'false', location: 'local-a', image: 'echo', tag: 'latest', host: '127.0.0.1', status: 'running',
      'filter[mode]': 'ranked', 'filterNot[mode]': 'casual', 'playerCount[lt]': '8', limit: '100',
    });
    setPath(t, `/session?${query}`);
  },
  'GET /session 422': (t) => setPath(t, '/session?limit=0'),

  'GET /session/{id} 404': (t) => setPath(t, '/session/no-such-session'),
  // 204 stops the example session; 409 stops it again once it has really ended.
  'DELETE /session/{id} 404': (t) => setPath(t, '/session/no-such-session'),
  'DELETE /session/{id} 409': () => waitEnded(EXAMPLE_ID),

  // Players need a live session; the ended example session gives the 409s.
  ...playerHooks('PUT /session/player/join'),
  // More players than the storage budget has room for, to a session of an account they filled.
  'PUT /session/player/join 403': async (t) => {
    const { id, token, next } = await fullBudgetSession();
    t.request.headers.Authorization = `Bearer ${token}`;
    patchJsonBody(t, { session: id, players: manyPlayers(next) });
  },
  ...playerHooks('DELETE /session/player/leave'),

  'GET /available-location/{image} 404': (t) => setPath(t, '/available-location/nope'),
  'GET /tag/{region}/{image}/{version} 404': (t) => setPath(t, '/tag/local-a/nope/latest'),

  // 200 reads the (ended) example session's log.
  'GET /logs 404': (t) => setPath(t, '/logs?id=no-such-session'),
  'GET /logs 422': (t) => setPath(t, '/logs?follow=false'),

  // The echo server leaves summary.json (not the example's `replays`, which gives the 404).
  'GET /artifacts 200': async (t) => {
    await waitEnded(EXAMPLE_ID);
    setPath(t, `/artifacts?session=${EXAMPLE_ID}&path=summary.json`);
  },
  'GET /artifacts 409': async (t) => setPath(t, `/artifacts?session=${await liveSession()}`),
  'GET /artifacts 422': (t) => setPath(t, `/artifacts?session=${EXAMPLE_ID}&path=../../x`),

  // 200 is skipped (SKIP). The spec's pattern is ^[0-9]{1,18}$.
  'GET /events 422': (t) => {
    t.request.headers['Last-Event-ID'] = 'abc';
  },

  // Every POST /subscription already points at the receiver (beforeEach).
  'POST /subscription 413': tooLarge,
  'POST /subscription 415': notJson,
  'POST /subscription 422': (t) => patchJsonBody(t, { url: 'ftp://x' }),
  // A second subscription to the receiver's url (the 201's, when it ran first).
  'POST /subscription 409': async () => {
    const { status } = await api('POST', '/subscription', { url: state.hookUrl });
    if (status !== 201 && status !== 409) throw new Error(`POST /subscription answered ${status}`);
  },
  // The example id does not exist; delete one created just for this.
  'GET /subscription/{id} 200': async (t) => setPath(t, `/subscription/${await createSubscription()}`),
  'GET /subscription/{id} 404': (t) => setPath(t, '/subscription/sub_doesnotexist'),
  'DELETE /subscription/{id} 204': async (t) => setPath(t, `/subscription/${await createSubscription()}`),
  'DELETE /subscription/{id} 404': (t) => setPath(t, '/subscription/sub_doesnotexist'),
  // A fresh subscription has no deliveries; start a session so there is one for the schema to judge.
  'GET /subscription/{id}/delivery 200': async (t) => {
    const id = await createSubscription();
    await startSession({ labels: { mode: 'dredd-delivery' } }); // afterAll stops it
    await eventually(async () => (await api('GET', `/subscription/${id}/delivery`)).body.deliveries?.length, {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: `a delivery to subscription ${id}`,
    });
    setPath(t, `/subscription/${id}/delivery`);
  },
  'GET /subscription/{id}/delivery 404': (t) => setPath(t, '/subscription/sub_doesnotexist/delivery'),

  // 202 registers the example's tag v1.4.2 of `echo` as is.
  'POST /webhook/repohost 404': (t) => patchJsonBody(t, { repository: { repo_name: 'studio/doom' } }),
  'POST /webhook/repohost 413': tooLarge,
  'POST /webhook/repohost 415': notJson,
  'POST /webhook/repohost 422': (t) => patchJsonBody(t, { push_data: { pushed_at: 1795000000, pusher: 'studio' } }),

  // The admin API. Every transaction gets the panel's cookie and CSRF token (beforeEach); the
  // 401s go without the cookie. The example ids do not exist, which gives the 404s.
  'POST /admin/api/auth 200': (t) => setJsonBody(t, ADMIN),
  'POST /admin/api/auth 401': (t) => setJsonBody(t, { email: ADMIN.email, password: 'not-the-password' }),
  'POST /admin/api/auth 413': (t) => setJsonBody(t, { email: ADMIN.email, password: 'x'.repeat(1_100_000) }),
  'POST /admin/api/auth 415': notJson,
  'POST /admin/api/auth 422': (t) => setJsonBody(t, { email: ADMIN.email }),
  // Five failures for an email nobody uses, from Dredd's address: the sixth attempt waits (429).
  'POST /admin/api/auth 429': async (t) => {
    const throttled = { email: 'throttled@example.com', password: 'not-the-password' };
    for (let i = 0; i < 5; i++) {
      await fetch(`${state.base}/admin/api/auth`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(throttled) });
    }
    setJsonBody(t, throttled);
  },
  'GET /admin/api/auth 401': noPanelSession,
  // Signs out a session of its own, not the one the other transactions use.
  'DELETE /admin/api/auth 204': async (t) => {
    const own = await signIn();
    t.request.headers.Cookie = own.cookie;
    t.request.headers['X-CSRF-Token'] = own.csrf;
  },
  'DELETE /admin/api/auth 401': noPanelSession,
  // The example cursor was never issued (422); page without it.
  'GET /admin/api/user 200': (t) => setPath(t, '/admin/api/user?q=studio&limit=100'),
  'GET /admin/api/user 401': noPanelSession,
  'GET /admin/api/user 422': (t) => setPath(t, '/admin/api/user?cursor=nonsense'),
  // 201 onboards the example account; 409 then reuses its email.
  'POST /admin/api/user 401': noPanelSession,
  'POST /admin/api/user 413': tooLarge,
  'POST /admin/api/user 415': notJson,
  'POST /admin/api/user 422': (t) => patchJsonBody(t, { quota_minutes: -1 }),
  'GET /admin/api/user/{id} 200': ownUser,
  'GET /admin/api/user/{id} 401': noPanelSession,
  'PATCH /admin/api/user/{id} 200': ownUser,
  'PATCH /admin/api/user/{id} 401': noPanelSession,
  'PATCH /admin/api/user/{id} 413': tooLarge,
  'PATCH /admin/api/user/{id} 415': notJson,
  'PATCH /admin/api/user/{id} 422': (t) => setJsonBody(t, {}),
  'GET /admin/api/user/{id}/token 200': async (t) => {
    await userToken(); // a token to list
    await ownUser(t);
  },
  'GET /admin/api/user/{id}/token 401': noPanelSession,
  'POST /admin/api/user/{id}/token 201': ownUser,
  'POST /admin/api/user/{id}/token 401': noPanelSession,
  'POST /admin/api/user/{id}/token 413': tooLarge,
  'POST /admin/api/user/{id}/token 415': notJson,
  'POST /admin/api/user/{id}/token 422': (t) => patchJsonBody(t, { expires_after: '1h1h' }),
  'PATCH /admin/api/user/{id}/token/{tokenId} 200': ownToken,
  'PATCH /admin/api/user/{id}/token/{tokenId} 401': noPanelSession,
  'PATCH /admin/api/user/{id}/token/{tokenId} 413': tooLarge,
  'PATCH /admin/api/user/{id}/token/{tokenId} 415': notJson,
  'PATCH /admin/api/user/{id}/token/{tokenId} 422': (t) => setJsonBody(t, { disabled: 'yes' }),
  'DELETE /admin/api/user/{id}/token/{tokenId} 204': ownToken,
  'DELETE /admin/api/user/{id}/token/{tokenId} 401': noPanelSession,
  'POST /admin/api/user/{id}/token/{tokenId}/reveal 200': ownToken,
  'POST /admin/api/user/{id}/token/{tokenId}/reveal 401': noPanelSession,
  'GET /admin/api/user/{id}/audit 200': ownUser,
  'GET /admin/api/user/{id}/audit 401': noPanelSession,
  'GET /admin/api/location 401': noPanelSession,
  // Unlock (the example locks local-a-1, which later transactions and afterAll do not want).
  'PATCH /admin/api/node/{id} 200': (t) => setJsonBody(t, { locked: false }),
  'PATCH /admin/api/node/{id} 401': noPanelSession,
  'PATCH /admin/api/node/{id} 404': (t) => setPath(t, '/admin/api/node/nowhere-1'),
  'PATCH /admin/api/node/{id} 413': tooLarge,
  'PATCH /admin/api/node/{id} 415': notJson,
  'PATCH /admin/api/node/{id} 422': (t) => setJsonBody(t, {}),
  'GET /admin/api/pool 401': noPanelSession,
  // Size 0: a pool of the example's size would launch game servers the later transactions do not want.
  'PUT /admin/api/pool 200': (t) => setJsonBody(t, { location: 'local-a', image: 'echo', tag: 'latest', warm: 0 }),
  'PUT /admin/api/pool 401': noPanelSession,
  'PUT /admin/api/pool 404': (t) => setJsonBody(t, { location: 'nowhere', image: 'echo', tag: 'latest', warm: 1 }),
  'PUT /admin/api/pool 413': tooLarge,
  'PUT /admin/api/pool 415': notJson,
  'PUT /admin/api/pool 422': (t) => setJsonBody(t, { location: 'local-a', image: 'echo', tag: 'latest', warm: -1 }),
  'GET /admin/api/session 200': (t) => setPath(t, '/admin/api/session?all=true&limit=100'),
  'GET /admin/api/session 401': noPanelSession,
  'GET /admin/api/session 422': (t) => setPath(t, '/admin/api/session?cursor=nonsense'),
  'DELETE /admin/api/session/{id} 204': async (t) => setPath(t, `/admin/api/session/${await startSession({ labels: { mode: 'dredd-admin' } })}`),
  'DELETE /admin/api/session/{id} 401': noPanelSession,
  'DELETE /admin/api/session/{id} 404': (t) => setPath(t, '/admin/api/session/no-such-session'),
  // The example session ended long before.
  'DELETE /admin/api/session/{id} 409': async (t) => {
    await waitEnded(EXAMPLE_ID);
    await exampleSessionOfOwnAccount(t);
  },
  'GET /admin/api/session/{id}/logs 200': exampleSessionOfOwnAccount,
  'GET /admin/api/session/{id}/logs 401': noPanelSession,
  'GET /admin/api/session/{id}/logs 404': (t) => setPath(t, '/admin/api/session/no-such-session/logs'),
  // Session ids are unique per account: another account starts one with the example's id, and
  // the id alone (no `account`) is then ambiguous.
  'GET /admin/api/session/{id}/logs 409': async (t) => {
    const { status, body } = await panelCall('POST', '/admin/api/user', { name: 'Twin', email: `twin-${randomUUID()}@example.com`, quota_minutes: 5 });
    if (status !== 201) throw new Error(`POST /admin/api/user answered ${status}`);
    const minted = await panelCall('POST', `/admin/api/user/${body.id}/token`, { name: 'twin', scopes: ['session:start'] });
    const headers = { Authorization: `Bearer ${minted.body.token}`, 'Content-Type': 'application/json' };
    const started = await fetch(`${state.base}/session`, { method: 'POST', headers, body: JSON.stringify({ id: EXAMPLE_ID, location: 'local-a', image: 'echo' }) });
    if (started.status !== 201) throw new Error(`POST /session (another account, the example id) answered ${started.status}`);
    setPath(t, `/admin/api/session/${EXAMPLE_ID}/logs`);
  },
  'GET /admin/api/image 401': noPanelSession,
  'GET /admin/api/overview 401': noPanelSession,
};

module.exports = { SHAPE, SKIP };
