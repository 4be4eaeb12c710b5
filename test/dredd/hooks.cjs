// Dredd hooks (see dredd.yml): authenticate every request, skip what cannot be tested, and
// shape the requests of the documented error responses so the server really answers them.
// CommonJS (.cjs) because Dredd loads hook files with require() and the package is ESM.
// Transactions run in spec order, so session state carries over: POST /session 201 starts the
// example session, DELETE /session/{id} 204 stops it, and everything after that sees it ended.
const hooks = require('hooks');
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { gunzipSync } = require('node:zlib');

// The operator token test/dredd/serve.sh bootstraps the server with (every scope).
const BOOTSTRAP_TOKEN = 'gsh_DreddContractTest0123456789abcdefghijklm';
// The session id of the spec's examples (request bodies, paths, queries).
const EXAMPLE_ID = '0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44';
const FINAL = ['exited', 'dead'];

// Single responses that cannot be provoked, with the reason.
const SKIP = {
  // Dredd would wait forever for the body to end.
  'GET /events 200': 'an endless SSE stream; the vitest SSE tests cover it',
  'GET /readyz 503': 'needs a failing store; test/api/disk-full.test.ts fills a tmpfs under the service',
  'GET /events 429': 'needs 20 streams held open; test/api/stream-revocation.test.ts covers it',
  'GET /logs 429': 'needs 20 log follows held open; test/api/stream-revocation.test.ts covers it',
  'POST /subscription 409': 'needs 25 subscriptions; test/api/stream-revocation.test.ts covers it',
};

// The service POSTs every session change to every subscription URL, and this machine must never
// send traffic anywhere but loopback: every subscription the hooks create (the spec's example
// included) points at this receiver, started in beforeAll.
let receiver;
let hookUrl;

let base; // the server's origin, from the first transaction

// The admin panel's operator (test/dredd/serve.sh sets ADMIN_EMAIL and ADMIN_PASSWORD). Admin
// operations authenticate with the session cookie and X-CSRF-Token, never a bearer token.
const ADMIN = { email: 'dredd-admin@example.com', password: 'dredd-admin-password' };
const signIn = async () => {
  const response = await fetch(`${base}/admin/api/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (response.status !== 200) throw new Error(`POST /admin/api/auth answered ${response.status}`);
  return { cookie: response.headers.get('set-cookie').split(';')[0], csrf: (await response.json()).csrf_token };
};
let panelSession; // one sign-in for every admin transaction, made on the first
const panelCall = async (method, path, body) => {
  const { cookie, csrf } = await (panelSession ??= signIn());
  const headers = { Cookie: cookie, 'X-CSRF-Token': csrf };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
};
// An account of Dredd's own (the spec's example id does not exist, which gives the 404s).
let dreddUser;
const userId = async () => {
  dreddUser ??= panelCall('POST', '/admin/api/user', { name: 'Dredd', email: `dredd-${randomUUID()}@example.com`, quota_minutes: 5 }).then(
    ({ status, body }) => {
      if (status !== 201) throw new Error(`POST /admin/api/user answered ${status}`);
      return body.id;
    },
  );
  return dreddUser;
};
const userToken = async (fields = {}) => {
  const { status, body } = await panelCall('POST', `/admin/api/user/${await userId()}/token`, { name: 'dredd', scopes: ['session:read'], ...fields });
  if (status !== 201) throw new Error(`POST /admin/api/user/{id}/token answered ${status}`);
  return body;
};
const EXAMPLE_USER = 'acc_5f2c9e1b7a3d';
// The admin session routes take the owning account (`?account=`, the example user's id): the
// bootstrap account's, which owns the example session.
let ownAccountId;
const exampleSessionOfOwnAccount = async (t) => {
  ownAccountId ??= api('GET', '/account').then(({ body }) => body.id);
  setPath(t, t.request.uri.replace(EXAMPLE_USER, await ownAccountId));
};
const EXAMPLE_TOKEN = 'tok_3kq9x1m2p8';
const ownUser = async (t) => setPath(t, t.request.uri.replace(EXAMPLE_USER, await userId()));
const ownToken = async (t) => {
  const token = await userToken();
  setPath(t, t.request.uri.replace(EXAMPLE_USER, await userId()).replace(EXAMPLE_TOKEN, token.id));
};
const noPanelSession = (t) => {
  delete t.request.headers.Cookie;
};
const api = async (method, path, body) => {
  const headers = { Authorization: `Bearer ${BOOTSTRAP_TOKEN}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
};

// The tests' one polling helper (ESM, so imported on first use).
const eventually = async (...args) => (await import('../support/eventually.mjs')).eventually(...args);
/** Poll the session until `done(status)`; stops are asynchronous (204 first, `exited` ~1 s later). */
const waitForStatus = async (id, done, what) => {
  await eventually(
    async () => {
      const { status, body } = await api('GET', `/session/${id}`);
      if (status !== 200) throw new Error(`GET /session/${id} answered ${status}`);
      return body.status;
    },
    { until: done, intervalMs: 100, what: `session ${id} ${what}` },
  );
};
const waitEnded = (id) => waitForStatus(id, (s) => FINAL.includes(s), 'ended');

const startSession = async (fields = {}) => {
  const id = `dredd-${randomUUID()}`;
  const { status } = await api('POST', '/session', { id, location: 'local-a', image: 'echo', ...fields });
  if (status !== 201) throw new Error(`POST /session answered ${status}`);
  return id;
};
// A second session that stays live for the rest of the run (the example one gets stopped before
// the player and artifact transactions); afterAll stops it.
let live;
const liveSession = () => (live ??= startSession({ labels: { mode: 'dredd-live' } }));

const unauthenticated = (t) => {
  delete t.request.headers.Authorization;
};

const setJsonBody = (t, value) => {
  t.request.body = JSON.stringify(value);
  t.request.headers['Content-Length'] = String(Buffer.byteLength(t.request.body));
};
const patchJsonBody = (t, changes) => setJsonBody(t, { ...JSON.parse(t.request.body), ...changes });

const setPath = (t, path) => {
  t.request.uri = path;
  t.fullPath = path;
};

const createSubscription = async () => {
  const { status, body } = await api('POST', '/subscription', { url: hookUrl });
  if (status !== 201) throw new Error(`POST /subscription answered ${status}`);
  return body.id;
};

const createToken = async () => {
  const { status, body } = await api('POST', '/token', { name: 'dredd-revoke-me', scopes: ['session:read'] });
  if (status !== 201) throw new Error(`POST /token answered ${status}`);
  return body.id;
};

// Over the 1 MiB body limit, and a body that is not JSON: the same for every JSON operation.
const tooLarge = (t) => patchJsonBody(t, { padding: 'x'.repeat(1_100_000) });
const notJson = (t) => {
  t.request.headers['Content-Type'] = 'text/plain';
};

/** The same shapes for joining and leaving: a live session, an unknown one, and the usual bad bodies. */
const playerHooks = (operation) => ({
  [`${operation} 200`]: async (t) => patchJsonBody(t, { session: await liveSession() }),
  [`${operation} 401`]: unauthenticated,
  [`${operation} 404`]: (t) => patchJsonBody(t, { session: 'no-such-session' }),
  [`${operation} 413`]: tooLarge,
  [`${operation} 415`]: notJson,
  [`${operation} 422`]: (t) => patchJsonBody(t, { players: [] }),
});

// How to provoke each documented response of the implemented operations, by
// "METHOD /path status". Success responses not listed here need only the default auth.
const SHAPE = {
  'POST /token 401': unauthenticated,
  'GET /token 401': unauthenticated,
  'DELETE /token/{id} 401': unauthenticated,
  'GET /account 401': unauthenticated,
  'POST /token 413': (t) => setJsonBody(t, { name: 'x'.repeat(1_100_000), scopes: ['session:read'] }),
  'POST /token 415': notJson,
  // Not a duration: the grammar allows each unit once.
  'POST /token 422': (t) => setJsonBody(t, { name: 'matchmaker', scopes: ['session:read'], expires_after: '1h1h' }),
  // The example id does not exist; revoke a token created just for this.
  'DELETE /token/{id} 204': async (t) => setPath(t, `/token/${await createToken()}`),
  'DELETE /token/{id} 404': (t) => setPath(t, '/token/tok_doesnotexist'),

  // 201 starts the example session as is; 409 then reuses its id.
  'POST /session 401': unauthenticated,
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
  'GET /session 401': unauthenticated,
  'GET /session 422': (t) => setPath(t, '/session?limit=0'),

  'GET /session/{id} 401': unauthenticated,
  'GET /session/{id} 404': (t) => setPath(t, '/session/no-such-session'),
  // 204 stops the example session; 409 stops it again once it has really ended.
  'DELETE /session/{id} 401': unauthenticated,
  'DELETE /session/{id} 404': (t) => setPath(t, '/session/no-such-session'),
  'DELETE /session/{id} 409': () => waitEnded(EXAMPLE_ID),

  // Players need a live session; the ended example session gives the 409s.
  ...playerHooks('PUT /session/player/join'),
  ...playerHooks('DELETE /session/player/leave'),

  'GET /location 401': unauthenticated,
  'GET /available-location/{image} 401': unauthenticated,
  'GET /available-location/{image} 404': (t) => setPath(t, '/available-location/nope'),
  'GET /tag/{region}/{image}/{version} 401': unauthenticated,
  'GET /tag/{region}/{image}/{version} 404': (t) => setPath(t, '/tag/local-a/nope/latest'),

  // 200 reads the (ended) example session's log.
  'GET /logs 401': unauthenticated,
  'GET /logs 404': (t) => setPath(t, '/logs?id=no-such-session'),
  'GET /logs 422': (t) => setPath(t, '/logs?follow=false'),

  // The echo server leaves summary.json (not the example's `replays`, which gives the 404).
  'GET /artifacts 200': async (t) => {
    await waitEnded(EXAMPLE_ID);
    setPath(t, `/artifacts?session=${EXAMPLE_ID}&path=summary.json`);
  },
  'GET /artifacts 401': unauthenticated,
  'GET /artifacts 409': async (t) => setPath(t, `/artifacts?session=${await liveSession()}`),
  'GET /artifacts 422': (t) => setPath(t, `/artifacts?session=${EXAMPLE_ID}&path=../../x`),

  // 200 is skipped (SKIP). The spec's pattern is ^[0-9]{1,18}$.
  'GET /events 401': unauthenticated,
  'GET /events 422': (t) => {
    t.request.headers['Last-Event-ID'] = 'abc';
  },

  // Every POST /subscription already points at the receiver (beforeEach).
  'POST /subscription 401': unauthenticated,
  'POST /subscription 413': tooLarge,
  'POST /subscription 415': notJson,
  'POST /subscription 422': (t) => patchJsonBody(t, { url: 'ftp://x' }),
  'GET /subscription 401': unauthenticated,
  // The example id does not exist; delete one created just for this.
  'GET /subscription/{id} 200': async (t) => setPath(t, `/subscription/${await createSubscription()}`),
  'GET /subscription/{id} 401': unauthenticated,
  'GET /subscription/{id} 404': (t) => setPath(t, '/subscription/sub_doesnotexist'),
  'DELETE /subscription/{id} 204': async (t) => setPath(t, `/subscription/${await createSubscription()}`),
  'DELETE /subscription/{id} 401': unauthenticated,
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
  'GET /subscription/{id}/delivery 401': unauthenticated,
  'GET /subscription/{id}/delivery 404': (t) => setPath(t, '/subscription/sub_doesnotexist/delivery'),

  // 202 registers the example's tag v1.4.2 of `echo` as is.
  'POST /webhook/repohost 401': unauthenticated,
  'GET /metrics 401': unauthenticated,
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
      await fetch(`${base}/admin/api/auth`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(throttled) });
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
    const started = await fetch(`${base}/session`, { method: 'POST', headers, body: JSON.stringify({ id: EXAMPLE_ID, location: 'local-a', image: 'echo' }) });
    if (started.status !== 201) throw new Error(`POST /session (another account, the example id) answered ${started.status}`);
    setPath(t, `/admin/api/session/${EXAMPLE_ID}/logs`);
  },
  'GET /admin/api/image 401': noPanelSession,
  'GET /admin/api/overview 401': noPanelSession,
};

hooks.beforeAll((transactions, done) => {
  receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end());
  });
  receiver.listen(0, '127.0.0.1', () => {
    hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
    done();
  });
});

// One beforeEach with a done callback (Dredd 14 awaits only hooks taking two arguments).
hooks.beforeEach((t, done) => {
  base ??= `${t.protocol}//${t.host}:${t.port}`;
  const operation = `${t.request.method} ${t.origin.resourceName}`;
  const status = t.expected.statusCode;
  const key = `${operation} ${status}`;
  if (SKIP[key]) {
    t.skip = true;
    return done();
  }
  if (status === '500') {
    t.skip = true; // an internal error cannot be provoked from outside without fault injection
    return done();
  }
  const admin = operation.startsWith('POST /admin/api/auth') ? 'signIn' : t.origin.resourceName.startsWith('/admin/api/') ? 'panel' : undefined;
  if (!admin) t.request.headers.Authorization = `Bearer ${BOOTSTRAP_TOKEN}`;
  // Before shaping, so even a request meant to fail (415, 401) could only ever create a loopback one.
  if (operation === 'POST /subscription') patchJsonBody(t, { url: hookUrl });
  const shape = SHAPE[key];
  Promise.resolve()
    .then(async () => {
      if (admin === 'panel') {
        const { cookie, csrf } = await (panelSession ??= signIn());
        t.request.headers.Cookie = cookie;
        t.request.headers['X-CSRF-Token'] = csrf;
      }
    })
    .then(() => shape && shape(t))
    .catch((error) => {
      t.fail = `could not prepare the request: ${error.message}`;
    })
    .finally(() => done());
});

const rawBody = (t) => Buffer.from(t.real.body ?? '', t.real.bodyEncoding === 'base64' ? 'base64' : 'utf8');

// Checks for bodies Gavel cannot judge by themselves. Each returns an error message or nothing;
// on success, the text and binary ones make the expected body the real one, since Gavel compares
// those verbatim against the spec's example (other ports, another session's text, '' for binary).
const CHECK = {
  // The list is schema-valid even when empty; require that the filters found the example session.
  'GET /session 200': (t) => {
    const ids = JSON.parse(t.real.body).sessions.map((s) => s.id);
    if (!ids.includes(EXAMPLE_ID)) return `the example query did not list session ${EXAMPLE_ID} (got ${ids.join(', ') || 'none'})`;
  },
  // The echo server's first line names its session; only the ports differ from the example.
  'GET /logs 200': (t) => {
    const text = rawBody(t).toString('utf8');
    if (!text.startsWith(`echo server for session ${EXAMPLE_ID} `)) return `not the example session's log: ${JSON.stringify(text.slice(0, 200))}`;
    t.expected.body = t.real.body;
  },
  'GET /admin/api/session/{id}/logs 200': (t) => {
    const text = rawBody(t).toString('utf8');
    if (!text.startsWith(`echo server for session ${EXAMPLE_ID} `)) return `not the example session's log: ${JSON.stringify(text.slice(0, 200))}`;
    t.expected.body = t.real.body;
  },
  // Prometheus' text format, with our metrics in it; the numbers are whatever the run made.
  'GET /metrics 200': (t) => {
    const text = rawBody(t).toString('utf8');
    if (!text.includes('# TYPE session_host_http_requests_total counter')) return `not our metrics: ${JSON.stringify(text.slice(0, 200))}`;
    t.expected.body = t.real.body;
  },
  // A tar whose first entry is the requested file; gzip (magic 1f 8b) only as a content encoding.
  'GET /artifacts 200': (t) => {
    const raw = rawBody(t);
    const gzipped = raw[0] === 0x1f && raw[1] === 0x8b;
    const encoding = t.real.headers['content-encoding'];
    if (gzipped !== (encoding === 'gzip')) return `gzip body ${gzipped} but Content-Encoding ${encoding}`;
    const name = (gzipped ? gunzipSync(raw) : raw).subarray(0, 100).toString('latin1').replace(/\0.*$/s, '');
    if (name !== 'summary.json') return `archive's first entry is ${JSON.stringify(name)}, not summary.json`;
    t.expected.body = t.real.body;
  },
};

// Gavel compares Content-Type verbatim, so the server's "application/json; charset=utf-8" fails
// against the spec's "application/json". Accept media-type parameters, still requiring the type.
const mediaType = (value) => String(value).split(';')[0].trim().toLowerCase();
hooks.beforeEachValidation((t) => {
  const expected = t.expected.headers && t.expected.headers['Content-Type'];
  const real = t.real.headers['content-type'];
  if (expected && real && mediaType(expected) === mediaType(real)) t.expected.headers['Content-Type'] = real;
  const check = t.real.statusCode === Number(t.expected.statusCode) && CHECK[`${t.request.method} ${t.origin.resourceName} ${t.expected.statusCode}`];
  if (!check) return;
  try {
    const problem = check(t);
    if (problem) t.fail = problem;
  } catch (error) {
    t.fail = `could not check the body: ${error.message}`;
  }
});

// Session supervisors outlive the server by design, so stop every session still live (the one
// liveSession() started, or any a failed step left) and wait until none is. Then delete every
// subscription and close the receiver.
hooks.afterAll((transactions, done) => {
  const stopAll = async () => {
    if (!base) return;
    let round = 0;
    await eventually(
      async () => {
        const { status, body } = await api('GET', '/session');
        if (status !== 200) throw new Error(`GET /session answered ${status}`);
        // Repeated every 2 s: a 409 just means the stop is already under way.
        if (body.sessions.length > 0 && round++ % 20 === 0) {
          await Promise.all(body.sessions.map((s) => api('DELETE', `/session/${encodeURIComponent(s.id)}`)));
        }
        return body.sessions.length === 0;
      },
      { intervalMs: 100, what: 'every session ending after the stops' },
    );
  };
  const unsubscribeAll = async () => {
    if (!base) return;
    const { body } = await api('GET', '/subscription');
    await Promise.all((body.subscriptions ?? []).map((s) => api('DELETE', `/subscription/${s.id}`)));
  };
  stopAll()
    .catch((error) => console.error(`afterAll: ${error.message}; serve.sh's watcher will SIGTERM the supervisors`))
    .then(unsubscribeAll)
    .catch((error) => console.error(`afterAll: ${error.message}`))
    .finally(() => {
      receiver.closeAllConnections(); // the service's fetch keeps connections alive
      receiver.close(() => done());
    });
});

// Coverage: the documented responses Dredd really exercised (not skipped, real status as
// expected, no failure), written for the coverage table (test/conformance/coverage.mjs).
const covered = [];
hooks.afterEach((t) => {
  if (!t.skip && !t.fail && t.real && String(t.real.statusCode) === String(t.expected.statusCode)) {
    covered.push(`${t.request.method} ${t.origin.resourceName} ${t.expected.statusCode}`);
  }
});
hooks.afterAll((transactions, done) => {
  require('node:fs').mkdirSync('test-results/coverage', { recursive: true });
  require('node:fs').writeFileSync('test-results/coverage/dredd.json', JSON.stringify(covered));
  done();
});
