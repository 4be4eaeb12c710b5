import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createSessionHostClient, NotFoundError, unwrap, waitForStatus, type SessionEvent } from '../client/index.js';
import { schemas } from '../generated/routes.js';
import { eventually } from './support/eventually.mjs';
import { contractFetch } from './support/contract.js';
import { usePrism } from './support/prism.js';
import { startService, type RunningService } from './support/service.js';

// SessionEvent as the spec says it (ajv and ajv-formats are CommonJS: their default export is the module object).
const ajv = new AjvModule.default({ strict: false });
addFormatsModule.default(ajv);
for (const schema of schemas) ajv.addSchema(schema);
const sessionEventIsValid = ajv.getSchema('SessionEvent')!;

describe('the typed client against the real service', () => {
  const contract = contractFetch();
  let running: RunningService;

  beforeAll(async () => {
    running = await startService();
  });
  afterAll(async () => {
    await running.close();
    expect(contract.violations).toEqual([]);
  });

  const client = (token?: string) =>
    createSessionHostClient({ baseUrl: running.url, fetch: contract.fetch, ...(token ? { token } : {}) });

  it('creates, lists and revokes a token and reads the account', async () => {
    const api = client(running.token);
    const created = unwrap(await api.POST('/token', { body: { name: 'sdk', scopes: ['session:read'], expires_after: '2h' } }));
    expect(created.scopes).toEqual(['session:read']);

    const account = unwrap(await client(created.token).GET('/account'));
    expect(account.quota.remaining).toBe(account.quota.total);

    const listed = unwrap(await api.GET('/token'));
    expect(listed.tokens.map((t) => t.id)).toContain(created.id);

    const revoked = await api.DELETE('/token/{id}', { params: { path: { id: created.id } } });
    expect(revoked.response.status).toBe(204);
  });

  it('turns an error into an ApiError carrying code, statusCode and identifier', async () => {
    const result = await client('gsh_0000000000000000000000000000000000000000').GET('/account');
    expect(result.error?.code).toBe('UNAUTHORIZED');
    let thrown: unknown;
    try {
      unwrap(result);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    const apiError = thrown as ApiError;
    expect(apiError).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED', details: 'unknown token' });
    expect(apiError.identifier).toBe(result.error?.identifier);
    expect(apiError.message).toContain(apiError.identifier);
  });

  // Outside check 9 (F4): openapi-fetch parsed every success as JSON, so these threw a SyntaxError although they compiled.
  it('reads the logs and the metrics as text and the artifacts as a Blob, as their Content-Type says, without parseAs', async () => {
    const api = client(running.token);
    unwrap(await api.POST('/session', { body: { id: 'bodies', location: 'local-a', image: 'echo' } }));
    await waitForStatus(api, 'bodies', 'running');
    // Until the game server writes, its log is empty (Content-Length: 0): still a string.
    const logs = await eventually(
      async () => {
        const text = unwrap(await api.GET('/logs', { params: { query: { id: 'bodies' } } }));
        return text.includes('echo server for session bodies') ? text : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200, what: "the echo server's first log line" },
    );
    expect(typeof logs).toBe('string');

    const metrics = unwrap(await api.GET('/metrics'));
    expect(typeof metrics).toBe('string');
    expect(metrics).toMatch(/^# (HELP|TYPE) /m);

    unwrap(await api.DELETE('/session/{id}', { params: { path: { id: 'bodies' } } }));
    await waitForStatus(api, 'bodies', ['exited', 'dead']);
    const archive = unwrap(await api.GET('/artifacts', { params: { query: { session: 'bodies' } } }));
    expect(archive).toBeInstanceOf(Blob);
    const dir = mkdtempSync(join(tmpdir(), 'client-artifacts-'));
    try {
      writeFileSync(join(dir, 'a.tar'), new Uint8Array(await archive.arrayBuffer()));
      expect(execFileSync('tar', ['tf', 'a.tar'], { cwd: dir, encoding: 'utf8' })).toMatch(/summary\.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // An error stays a typed error; a call's own parseAs still decides.
    await expect(api.GET('/logs', { params: { query: { id: 'no-such-session' } } }).then(unwrap)).rejects.toBeInstanceOf(NotFoundError);
    const streamed = unwrap(await api.GET('/logs', { params: { query: { id: 'bodies' } }, parseAs: 'stream' }));
    expect(streamed).toBeInstanceOf(ReadableStream);
    expect(await new Response(streamed).text()).toContain('echo server for session bodies');
    expect(unwrap(await api.GET('/metrics', { parseAs: 'blob' }))).toBeInstanceOf(Blob);
  }, 60_000);

  it('hands the event stream over as a stream, without parseAs (read as text, the call would never return)', async () => {
    const events = unwrap(await client(running.token).GET('/events'));
    expect(events).toBeInstanceOf(ReadableStream);
    const reader = events.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^retry: \d+$/m);
    await reader.cancel();
  }, 20_000);

  it('reports the violations of a 422', async () => {
    const result = await client(running.token).POST('/token', {
      body: { name: 'bad', scopes: ['session:read'], expires_after: '0m' },
    });
    expect(() => unwrap(result)).toThrow(ApiError);
    expect(result.error?.violations?.[0]?.field).toBe('body.expires_after');
  });
});

describe('the typed client against the Prism mock of the spec', () => {
  const prism = usePrism();

  it("gets the spec's examples back, typed", async () => {
    const api = createSessionHostClient({ baseUrl: prism.url, token: 'gsh_MockMockMockMockMockMockMock' });
    const account = unwrap(await api.GET('/account'));
    expect(account).toEqual({ id: 'acc_operator', name: 'Operator', quota: { total: 6000, used: 12.5, remaining: 5987.5 }, max_sessions: null });
    const created = unwrap(await api.POST('/token', { body: { name: 'matchmaker', scopes: ['session:start'] } }));
    expect(created.token).toMatch(/^gsh_/);
    const sessions = unwrap(await api.GET('/session'));
    expect(sessions.sessions[0]?.status).toBe('running');
  });

  it("answers a start as a cold start does, created and not yet started (code that took the 201 for running connected too early)", async () => {
    const api = createSessionHostClient({ baseUrl: prism.url, token: 'gsh_MockMockMockMockMockMockMock' });
    const started = unwrap(await api.POST('/session', { body: { location: 'local-a', image: 'echo' } }));
    expect(started).toMatchObject({ status: 'created', started: null });
  });

  it('streams events whose data are SessionEvents, each id the SSE id, as the service sends them (the example had no session and a session id for id)', async () => {
    const api = createSessionHostClient({ baseUrl: prism.url, token: 'gsh_MockMockMockMockMockMockMock' });
    const text = await new Response(unwrap(await api.GET('/events'))).text();
    const received: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => received.push(event) });
    parser.feed(text);
    expect(received.map((event) => event.event)).toEqual(['snapshot', 'session']);
    for (const event of received) {
      const data = JSON.parse(event.data) as SessionEvent;
      expect(sessionEventIsValid(data), JSON.stringify(sessionEventIsValid.errors)).toBe(true);
      expect(data.id).toBe(event.id);
    }
  });

  it('gets a 401 ApiError from the mock without a token', async () => {
    const api = createSessionHostClient({ baseUrl: prism.url });
    const result = await api.GET('/account');
    expect(result.response.status).toBe(401);
    expect(() => unwrap(result)).toThrow(ApiError);
  });

  it('answers a path that is not valid percent-encoding 404 as the service does, and keeps answering (Prism alone died of it)', async () => {
    const malformed = await fetch(`${prism.url}/session/%E0%A4%A`, { headers: { Authorization: 'Bearer gsh_MockMockMockMockMockMockMock' } });
    expect(malformed.status).toBe(404);
    expect(await malformed.json()).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: 'no such resource: the path is not valid percent-encoding' });
    const api = createSessionHostClient({ baseUrl: prism.url, token: 'gsh_MockMockMockMockMockMockMock' });
    expect(unwrap(await api.GET('/account')).id).toBe('acc_operator');
  });

  it('gets a 422 from the mock for a body that breaks the schema', async () => {
    const api = createSessionHostClient({ baseUrl: prism.url, token: 'gsh_MockMockMockMockMockMockMock' });
    // @ts-expect-error the body misses the required scopes, which the types also forbid.
    const result = await api.POST('/token', { body: { name: 'no scopes' } });
    expect(result.response.status).toBe(422);
  });
});

describe('the typed client reading bodies by Content-Type (a stub fetch)', () => {
  const answering = (body: string, headers: Record<string, string>, status = 200) =>
    createSessionHostClient({ baseUrl: 'http://127.0.0.1:9', token: 'gsh_x', fetch: async () => new Response(body || null, { status, headers }) });

  it("gives an empty log as '' and an empty archive as an empty Blob (openapi-fetch alone: undefined)", async () => {
    const log = unwrap(await answering('', { 'content-type': 'text/plain; charset=utf-8', 'content-length': '0' }).GET('/logs', { params: { query: { id: 'x' } } }));
    expect(log).toBe('');
    const archive = unwrap(await answering('', { 'content-type': 'application/x-tar', 'content-length': '0' }).GET('/artifacts', { params: { query: { session: 'x' } } }));
    expect(archive).toBeInstanceOf(Blob);
    expect(archive.size).toBe(0);
  });

  it('keeps JSON, a 204 and an error as openapi-fetch reads them', async () => {
    const account = { id: 'acc_1', name: 'A', quota: { total: 1, used: 0, remaining: 1 } };
    expect(unwrap(await answering(JSON.stringify(account), { 'content-type': 'application/json' }).GET('/account'))).toEqual(account);
    const revoked = await answering('', {}, 204).DELETE('/token/{id}', { params: { path: { id: 'tok_1' } } });
    expect(revoked.data).toBeUndefined();
    const body = { code: 'RESOURCE_NOT_FOUND', statusCode: 404, message: 'no such session', identifier: '0'.repeat(32) };
    const missing = await answering(JSON.stringify(body), { 'content-type': 'application/json' }, 404).GET('/logs', { params: { query: { id: 'x' } } });
    expect(missing.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect(() => unwrap(missing)).toThrow(NotFoundError);
  });
});
