// Shared by the Dredd hooks (hooks.cjs) and their request shapes (shapes.cjs): the server's
// origin, the operator token, the admin panel's sign-in, calls to the API and the panel, sessions
// and their states, and the small edits that shape a transaction's request.
const { randomUUID } = require('node:crypto');

// The operator token test/dredd/serve.sh bootstraps the server with (every scope).
const BOOTSTRAP_TOKEN = 'gsh_DreddContractTest0123456789abcdefghijklm';
// The session id of the spec's examples (request bodies, paths, queries).
const EXAMPLE_ID = '0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44';
const FINAL = ['exited', 'dead'];

// The service POSTs every session change to every subscription URL, and this machine must never
// send traffic anywhere but loopback: every subscription the hooks create (the spec's example
// included) points at this receiver, started in beforeAll.
/** What the hooks learn as they run: the server's origin (from the first transaction), the receiver's URL. */
const state = { base: undefined, hookUrl: undefined, otherAccountSessions: [] };

// The admin panel's operator (test/dredd/serve.sh sets ADMIN_EMAIL and ADMIN_PASSWORD). Admin
// operations authenticate with the session cookie and X-CSRF-Token, never a bearer token.
const ADMIN = { email: 'dredd-admin@example.com', password: 'dredd-admin-password' };
const signIn = async () => {
  const response = await fetch(`${state.base}/admin/api/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (response.status !== 200) throw new Error(`POST /admin/api/auth answered ${response.status}`);
  return { cookie: response.headers.get('set-cookie').split(';')[0], csrf: (await response.json()).csrf_token };
};
let panelSession; // one sign-in for every admin transaction, made on the first
const panelAuth = () => (panelSession ??= signIn());
/** A call to the server with a JSON body (if any); answers its status and its body, parsed when JSON. */
const call = async (method, path, body, headers) => {
  if (body !== undefined) headers = { ...headers, 'Content-Type': 'application/json' };
  const response = await fetch(state.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
};
const panelCall = async (method, path, body) => {
  const { cookie, csrf } = await panelAuth();
  return call(method, path, body, { Cookie: cookie, 'X-CSRF-Token': csrf });
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
const api = (method, path, body) => call(method, path, body, { Authorization: `Bearer ${BOOTSTRAP_TOKEN}` });

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

// Each to a url of its own (an account subscribes a url once): POST /subscription's 201 keeps the receiver's plain one.
let subscriptionsMade = 0;
const createSubscription = async () => {
  const { status, body } = await api('POST', '/subscription', { url: `${state.hookUrl}?fixture=${++subscriptionsMade}` });
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

/** 256 players of 128-character ids (each 192 bytes of the storage budget with its record), numbered from `from`. */
const manyPlayers = (from) => Array.from({ length: 256 }, (_, i) => `dredd-player-${from + i}-`.padEnd(128, 'p'));
/**
 * A live session of an account of its own, whose players fill its storage budget (serve.sh sets
 * STORAGE_BUDGET_MIB small): a join of more players to it is 403. Answers the session and the
 * token that joins to it; afterAll stops it (state.otherAccountSessions).
 */
const fullBudgetSession = async () => {
  const user = await panelCall('POST', '/admin/api/user', { name: 'Full budget', email: `budget-${randomUUID()}@example.com`, quota_minutes: 5 });
  if (user.status !== 201) throw new Error(`POST /admin/api/user answered ${user.status}`);
  const minted = await panelCall('POST', `/admin/api/user/${user.body.id}/token`, { name: 'players', scopes: ['session:read', 'session:start', 'session:stop'] });
  if (minted.status !== 201) throw new Error(`POST /admin/api/user/{id}/token answered ${minted.status}`);
  const auth = { Authorization: `Bearer ${minted.body.token}` };
  const id = `dredd-${randomUUID()}`;
  const started = await call('POST', '/session', { id, location: 'local-a', image: 'echo' }, auth);
  if (started.status !== 201) throw new Error(`POST /session answered ${started.status}`);
  state.otherAccountSessions.push({ id, auth });
  for (let from = 0; from < 1024; from += 256) {
    const { status } = await call('PUT', '/session/player/join', { session: id, players: manyPlayers(from) }, auth);
    if (status === 403) return { id, token: minted.body.token, next: from + 256 };
    if (status !== 200) throw new Error(`PUT /session/player/join answered ${status}`);
  }
  throw new Error("1,024 players did not fill the account's storage budget (serve.sh's STORAGE_BUDGET_MIB)");
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

module.exports = { exampleSessionOfOwnAccount, ADMIN, BOOTSTRAP_TOKEN, EXAMPLE_ID, FINAL, api, call, createSubscription, fullBudgetSession, manyPlayers, createToken, eventually, liveSession, noPanelSession, notJson, ownToken, ownUser, panelAuth, panelCall, patchJsonBody, playerHooks, setJsonBody, setPath, signIn, startSession, state, tooLarge, unauthenticated, userId, userToken, waitEnded, waitForStatus };
