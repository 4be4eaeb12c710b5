// Dredd hooks (see dredd.yml): authenticate every request, skip what cannot be tested, and
// shape the requests of the documented error responses so the server really answers them.
// CommonJS (.cjs) because Dredd loads hook files with require() and the package is ESM.
// Transactions run in spec order, so session state carries over: POST /session 201 starts the
// example session, DELETE /session/{id} 204 stops it, and everything after that sees it ended.
const hooks = require('hooks');
const http = require('node:http');
const { gunzipSync } = require('node:zlib');
const { BOOTSTRAP_TOKEN, EXAMPLE_ID, api, call, eventually, liveSession, panelAuth, patchJsonBody, state } = require('./fixtures.cjs');
const { SHAPE, SKIP } = require('./shapes.cjs');

// The webhook receiver: see fixtures.cjs (state.hookUrl).
let receiver;

hooks.beforeAll((transactions, done) => {
  receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end());
  });
  receiver.listen(0, '127.0.0.1', () => {
    state.hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
    done();
  });
});

// One beforeEach with a done callback (Dredd 14 awaits only hooks taking two arguments).
hooks.beforeEach((t, done) => {
  state.base ??= `${t.protocol}//${t.host}:${t.port}`;
  const operation = `${t.request.method} ${t.origin.resourceName}`;
  const status = t.expected.statusCode;
  const key = `${operation} ${status}`;
  if (SKIP[key]) {
    t.skip = true;
    return done();
  }
  if (status === '500' || status === '503') {
    // An internal error, or a busy database (503: test/store/pg-busy.test.ts holds a row or the
    // pool), cannot be provoked from outside without fault injection.
    t.skip = true;
    return done();
  }
  const admin = operation.startsWith('POST /admin/api/auth') ? 'signIn' : t.origin.resourceName.startsWith('/admin/api/') ? 'panel' : undefined;
  if (!admin) t.request.headers.Authorization = `Bearer ${BOOTSTRAP_TOKEN}`;
  // Before shaping, so even a request meant to fail (415, 401) could only ever create a loopback one.
  if (operation === 'POST /subscription') patchJsonBody(t, { url: state.hookUrl });
  const shape = SHAPE[key];
  Promise.resolve()
    .then(async () => {
      if (admin === 'panel') {
        const { cookie, csrf } = await panelAuth();
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
    if (!state.base) return;
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
    // Sessions of other accounts (fullBudgetSession), stopped with their own tokens.
    for (const { id, auth } of state.otherAccountSessions) {
      const path = `/session/${encodeURIComponent(id)}`;
      await call('DELETE', path, undefined, auth);
      await eventually(
        async () => ['exited', 'dead'].includes((await call('GET', path, undefined, auth)).body.status),
        { intervalMs: 100, what: `session ${id} ending after its stop` },
      );
    }
  };
  const unsubscribeAll = async () => {
    if (!state.base) return;
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
