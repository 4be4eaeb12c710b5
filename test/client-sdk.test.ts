/**
 * The client SDK's recommended behaviour: 420 retry after Retry-After then secondary locations,
 * idempotent start retries read back on 409, typed errors, waitForStatus over events with a
 * polling fallback. Against the Prism mock (forced statuses with `Prefer: code=…`), the sandbox
 * (errors on demand with `X-Sandbox-Status`) and the real service.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sleep } from '../client/sleep.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  CapacityUnavailableError,
  ConflictError,
  createSessionHostClient,
  errorClasses,
  InvalidRequestError,
  MethodNotAllowedError,
  NotFoundError,
  RedirectedError,
  retryDelayMs,
  startSession,
  unwrap,
  UnreachableError,
  waitForStatus,
  WaitError,
  type ErrorCode,
  type SessionHostError,
} from '../client/index.js';
import { contractFetch } from './support/contract.js';
import { usePrism } from './support/prism.js';
import { startService, type RunningService } from './support/service.js';

/** An injected sleep: records the delays, returns at once. */
function recordingSleep() {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      delays.push(ms);
    },
  };
}

/** Counts the POST /session requests going through. */
function countingFetch(inner: typeof fetch = fetch) {
  const seen: { location: string; headers: Record<string, string> }[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && new URL(request.url).pathname === '/session') {
      const body = (await request.clone().json()) as { location: string };
      seen.push({ location: body.location, headers: Object.fromEntries(request.headers) });
    }
    return inner(request);
  };
  return { seen, fetch: wrapped };
}

describe('retry delays', () => {
  it('clamp Retry-After into 2 to 5 s, with jitter', () => {
    expect(retryDelayMs(3, () => 0.5)).toBe(3000);
    expect(retryDelayMs(3, () => 0)).toBe(2700);
    expect(retryDelayMs(3, () => 1)).toBe(3300);
    expect(retryDelayMs(0, () => 0)).toBe(2000);
    expect(retryDelayMs(1, () => 1)).toBe(2200);
    expect(retryDelayMs(60, () => 1)).toBe(5000);
    expect(retryDelayMs(undefined, () => 0.5)).toBe(3000);
    for (let i = 0; i < 100; i++) {
      const delay = retryDelayMs(Math.random() * 10);
      expect(delay).toBeGreaterThanOrEqual(2000);
      expect(delay).toBeLessThanOrEqual(5000);
    }
  });
});

describe('the client SDK against the Prism mock', () => {
  const prism = usePrism();
  const token = 'gsh_MockMockMockMockMockMockMock';
  /** A client on the mock whose POST /session requests are counted and whose waits are recorded. */
  const countedClient = () => {
    const counting = countingFetch();
    return { counting, api: createSessionHostClient({ baseUrl: prism.url, token, fetch: counting.fetch }), ...recordingSleep() };
  };

  it('retries a 420 after Retry-After, then starts in the secondary location and says so', async () => {
    const { counting, api, sleep, delays } = countedClient();
    const result = await startSession(
      api,
      { id: 'mock-1', location: 'eu-west', image: 'echo', restart: false },
      { locations: ['us-east'], sleep, headers: ({ location }) => (location === 'eu-west' ? { Prefer: 'code=420' } : undefined) },
    );
    expect(result.location).toBe('us-east');
    expect(result.alreadyStarted).toBe(false);
    expect(result.attempts.map((a) => [a.location, a.outcome])).toEqual([
      ['eu-west', 'capacity'],
      ['eu-west', 'capacity'],
      ['us-east', 'created'],
    ]);
    expect(counting.seen.map((s) => s.location)).toEqual(['eu-west', 'eu-west', 'us-east']);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(2000);
    expect(delays[0]).toBeLessThanOrEqual(5000);
    expect(result.session.status).toBe('created'); // the spec's first example: a cold start
  });

  it('gives up with a CapacityUnavailableError when every location answers 420', async () => {
    const { counting, api, sleep, delays } = countedClient();
    const error = await startSession(
      api,
      { id: 'mock-2', location: 'a', image: 'echo', restart: false },
      { locations: ['b', 'c'], attemptsPerLocation: 3, sleep, headers: () => ({ Prefer: 'code=420' }) },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapacityUnavailableError);
    expect((error as CapacityUnavailableError).identifier).toBeTruthy();
    expect(counting.seen.map((s) => s.location)).toEqual(['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c']);
    expect(delays).toHaveLength(6); // two waits per location, none between locations
  });

  it('does not retry a 409 on a first start (the id is taken), nor a 422', async () => {
    for (const [code, ErrorClass] of [
      ['409', ConflictError],
      ['422', InvalidRequestError],
    ] as const) {
      const { counting, api } = countedClient();
      const error = await startSession(api, { id: 'mock-3', location: 'a', image: 'echo', restart: false }, { locations: ['b'], headers: () => ({ Prefer: `code=${code}` }) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ErrorClass);
      expect(counting.seen).toHaveLength(1);
    }
  });

  it('is abortable while waiting for Retry-After', async () => {
    const api = createSessionHostClient({ baseUrl: prism.url, token });
    const controller = new AbortController();
    const waits: { ms: number; signal?: AbortSignal }[] = [];
    const pending = startSession(api, { id: 'mock-4', location: 'a', image: 'echo', restart: false }, {
      signal: controller.signal,
      headers: () => ({ Prefer: 'code=420' }),
      // The real sleep, recorded: the wait it is given must be the one the abort cuts short.
      sleep: (ms, signal) => {
        waits.push({ ms, ...(signal ? { signal } : {}) });
        return sleep(ms, signal);
      },
      onRetry: () => setTimeout(() => controller.abort(new Error('caller gave up')), 50),
    });
    await expect(pending).rejects.toThrow('caller gave up');
    expect(waits).toHaveLength(1);
    expect(waits[0]!.ms).toBeGreaterThanOrEqual(1800);
    expect(waits[0]!.signal?.aborted).toBe(true);
  });

  it('waits for a status by polling when the event stream has nothing for the session', async () => {
    const api = createSessionHostClient({ baseUrl: prism.url, token });
    const { session } = await waitForStatus(api, 'any', 'running', { pollIntervalMs: 10, timeoutMs: 10_000 });
    expect(session.status).toBe('running');
  });
});

describe('the client SDK against the sandbox', () => {
  const contract = contractFetch();
  let sandbox: RunningService;

  beforeAll(async () => {
    sandbox = await startService({ sandbox: true }, { fleet: null });
  });
  afterAll(async () => {
    await sandbox.close();
    expect(contract.violations).toEqual([]);
  });

  const client = (fetchImpl: typeof fetch = contract.fetch) => createSessionHostClient({ baseUrl: sandbox.url, token: sandbox.token, fetch: fetchImpl });

  it('falls back from local-a (420 on demand) to local-b, and waits for running over events', async () => {
    const counting = countingFetch(contract.fetch);
    const api = client(counting.fetch);
    const { sleep, delays } = recordingSleep();
    const retries: string[] = [];
    const result = await startSession(
      api,
      { id: 'sdk-sb-1', location: 'local-a', image: 'echo', restart: false },
      {
        locations: ['local-b'],
        sleep,
        headers: ({ location }) => (location === 'local-a' ? { 'X-Sandbox-Status': '420' } : undefined),
        onRetry: ({ error }) => retries.push((error as ApiError).identifier),
      },
    );
    expect(result.location).toBe('local-b');
    expect(result.session).toMatchObject({ id: 'sdk-sb-1', location: 'local-b', status: 'created' });
    // The sandbox sends Retry-After: 3.
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(2700);
    expect(delays[0]).toBeLessThanOrEqual(3300);
    expect(retries[0]).toMatch(/^[0-9a-f]{32}$/);

    const seen: string[] = [];
    const waited = await waitForStatus(api, 'sdk-sb-1', 'running', { onStatus: (status) => seen.push(status) });
    expect(waited.via).toBe('events');
    expect(waited.session.status).toBe('running');
    expect(seen.at(-1)).toBe('running');
  });

  /** A fetch through the contract checker whose first POST reaches the service, its answer lost on the way back. */
  const firstPostAnswerLost = (): typeof fetch => {
    let posts = 0;
    return async (input, init) => {
      const request = new Request(input, init);
      const response = await contract.fetch(request);
      if (request.method === 'POST' && ++posts === 1) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
  };

  it('reads the session back when a retried start meets 409 (the first attempt went through)', async () => {
    // The first POST reaches the service, but its answer is lost on the way back.
    const lossy = firstPostAnswerLost();
    const { sleep } = recordingSleep();
    const result = await startSession(client(lossy), { id: 'sdk-sb-2', location: 'local-a', image: 'echo', restart: false }, { sleep });
    expect(result.alreadyStarted).toBe(true);
    expect(result.location).toBe('local-a');
    expect(result.session.id).toBe('sdk-sb-2');
    expect(result.attempts.map((a) => a.outcome)).toEqual(['unknown', 'existing']);
  });

  it('keeps the 409 when the session read back is not one any attempt could have started (a reused id)', async () => {
    // sdk-sb-reused already ran in local-b; a start asking for local-a only loses its first answer, then meets 409.
    expect((await client().POST('/session', { body: { id: 'sdk-sb-reused', location: 'local-b', image: 'echo' } })).response.status).toBe(201);
    const lossy = firstPostAnswerLost();
    const { sleep } = recordingSleep();
    const outcome = await startSession(client(lossy), { id: 'sdk-sb-reused', location: 'local-a', image: 'echo', restart: false }, { sleep }).catch((e: unknown) => e);
    // It was "already started" in local-b, a location this start never asked for.
    expect(outcome).toBeInstanceOf(ConflictError);
  });

  it('retries a 503 (busy, nothing done) after Retry-After in the same location, and a later 409 stays a conflict', async () => {
    const counting = countingFetch(contract.fetch);
    const { sleep, delays } = recordingSleep();
    const result = await startSession(
      client(counting.fetch),
      { id: 'sdk-sb-busy', location: 'local-a', image: 'echo', restart: false },
      { locations: ['local-b'], sleep, headers: ({ attempt }) => (attempt === 1 ? { 'X-Sandbox-Status': '503' } : undefined) },
    );
    expect(result.location).toBe('local-a');
    expect(result.alreadyStarted).toBe(false);
    expect(result.attempts.map((a) => a.outcome)).toEqual(['busy', 'created']);
    expect(counting.seen.map((s) => s.location)).toEqual(['local-a', 'local-a']);
    // The sandbox sends Retry-After: 3.
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(2700);
    expect(delays[0]).toBeLessThanOrEqual(3300);

    // A 503 did nothing, so a 409 after it is the id being taken, not this start having gone through.
    const conflict = await startSession(
      client(),
      { id: 'sdk-sb-busy', location: 'local-a', image: 'echo', restart: false },
      { sleep, headers: ({ attempt }) => (attempt === 1 ? { 'X-Sandbox-Status': '503' } : undefined) },
    ).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
  });

  it('turns every documented error code into its typed error, with the identifier', async () => {
    // 405 and 400 are answered by routing and the HTTP parser, not by an operation (below).
    const statuses: Record<Exclude<ErrorCode, 'METHOD_NOT_ALLOWED' | 'BAD_REQUEST'>, string> = {
      UNAUTHORIZED: '401',
      QUOTA_EXCEEDED: '403',
      RESOURCE_NOT_FOUND: '404',
      CONFLICT: '409',
      PAYLOAD_TOO_LARGE: '413',
      UNSUPPORTED_MEDIA_TYPE: '415',
      CAPACITY_UNAVAILABLE: '420',
      INVALID_REQUEST: '422',
      TOO_MANY_REQUESTS: '429',
      INTERNAL_ERROR: '500',
      SERVICE_UNAVAILABLE: '503',
    };
    const api = client();
    for (const [code, status] of Object.entries(statuses) as [ErrorCode, string][]) {
      const headers = { 'X-Sandbox-Status': status };
      // Only sign-in documents 429.
      const result: { data?: unknown; error?: { identifier: string }; response: Response } =
        code === 'TOO_MANY_REQUESTS'
          ? await api.POST('/admin/api/auth', { body: { email: 'ops@example.com', password: 'not-the-password' }, headers })
          : await api.POST('/session', { body: { id: 'sdk-sb-err', location: 'local-a', image: 'echo', restart: false }, headers });
      let thrown: unknown;
      try {
        unwrap(result);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(errorClasses[code]);
      expect(thrown).toBeInstanceOf(ApiError);
      const error = thrown as SessionHostError;
      expect(error.code).toBe(code);
      expect(error.statusCode).toBe(Number(status));
      expect(error.identifier).toBe(result.error?.identifier);
      expect(error.message).toContain(error.identifier);
      if (error.code === 'CAPACITY_UNAVAILABLE' || error.code === 'TOO_MANY_REQUESTS' || error.code === 'SERVICE_UNAVAILABLE') expect(error.retryAfter).toBe(3);
    }
  });

  it('turns a method the path lacks into a MethodNotAllowedError, with Allow', async () => {
    const result = await (client() as unknown as { DELETE: (path: string, init: object) => Promise<Parameters<typeof unwrap>[0]> }).DELETE('/session', {});
    expect(() => unwrap(result)).toThrow(MethodNotAllowedError);
    expect(result.response.headers.get('Allow')).toBe('GET, POST');
  });

  it('rejects a wait for a session that does not exist with a NotFoundError', async () => {
    await expect(waitForStatus(client(), 'no-such-session', 'running')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('the client SDK against the real service', () => {
  const contract = contractFetch();
  let running: RunningService;

  beforeAll(async () => {
    running = await startService({ runtime: 'simulated' });
  });
  afterAll(async () => {
    await running.close();
    expect(contract.violations).toEqual([]);
  });

  const client = (fetchImpl: typeof fetch = contract.fetch) => createSessionHostClient({ baseUrl: running.url, token: running.token, fetch: fetchImpl });

  it('runs a lifecycle: start, wait running, list, stop, wait exited', async () => {
    const api = client();
    const { session, location } = await startSession(api, { id: 'sdk-life-1', location: 'local-a', image: 'echo', restart: false, labels: { mode: 'sdk' } });
    expect(location).toBe('local-a');
    expect((await waitForStatus(api, session.id, 'running')).session.started).not.toBeNull();

    const listed = unwrap(await api.GET('/session', { params: { query: { status: 'running' } } }));
    expect(listed.sessions.map((s) => s.id)).toContain('sdk-life-1');

    expect((await api.DELETE('/session/{id}', { params: { path: { id: session.id } } })).response.status).toBe(204);
    const ended = await waitForStatus(api, session.id, ['exited', 'dead']);
    expect(ended.session).toMatchObject({ status: 'exited', end_reason: 'stopped' });
    // Already ended: the wait answers at once, from the read made when the stream opened.
    expect((await waitForStatus(api, session.id, 'exited', { timeoutMs: 2000 })).session.status).toBe('exited');
  });

  it('falls back to polling when the event stream cannot be opened', async () => {
    const noEvents: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname === '/events') throw new TypeError('fetch failed: proxy drops event streams');
      return contract.fetch(request);
    };
    const api = client(noEvents);
    await startSession(api, { id: 'sdk-life-2', location: 'local-b', image: 'echo', restart: false });
    const waited = await waitForStatus(api, 'sdk-life-2', 'running', { pollIntervalMs: 20 });
    expect(waited.via).toBe('polling');
    unwrap(await api.DELETE('/session/{id}', { params: { path: { id: 'sdk-life-2' } } }));
  });

  it('keeps waiting through a restart of the service: refused connections and a 503 while polling are retried until the timeout', async () => {
    let failures = 0;
    // The service restarting: no event stream, reads refused three times, then one 503, then answered.
    const restarting: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      if (path === '/events') throw new TypeError('fetch failed: connect ECONNREFUSED');
      if (path === '/session/sdk-life-5' && failures < 4) {
        failures++;
        if (failures <= 3) throw new TypeError('fetch failed: connect ECONNREFUSED');
        const body = { statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: 'Service busy', path, identifier: 'f'.repeat(32), timestamp: new Date().toISOString(), details: 'busy' };
        return Response.json(body, { status: 503, headers: { 'Retry-After': '1' } });
      }
      return contract.fetch(request);
    };
    const api = client(restarting);
    await startSession(client(), { id: 'sdk-life-5', location: 'local-b', image: 'echo', restart: false });
    const waited = await waitForStatus(api, 'sdk-life-5', 'running', { pollIntervalMs: 20 });
    expect(waited.via).toBe('polling');
    expect(waited.session.status).toBe('running');
    expect(failures).toBe(4);
    unwrap(await client().DELETE('/session/{id}', { params: { path: { id: 'sdk-life-5' } } }));

    // A service that never comes back: the wait ends at its timeout, saying what the reads met.
    const gone = createSessionHostClient({ baseUrl: 'http://127.0.0.1:9', token: running.token });
    const timedOut = await waitForStatus(gone, 'sdk-life-5', 'running', { pollIntervalMs: 20, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(WaitError);
    expect((timedOut as Error).message).toContain('cannot reach http://127.0.0.1:9');
  });

  it('fails a wait for running when the session ends first, and times out with the last status', async () => {
    const api = client();
    await startSession(api, { id: 'sdk-life-3', location: 'local-a', image: 'echo', restart: false });
    unwrap(await api.DELETE('/session/{id}', { params: { path: { id: 'sdk-life-3' } } }));
    await waitForStatus(api, 'sdk-life-3', 'exited');
    const ended = await waitForStatus(api, 'sdk-life-3', 'running').catch((e: unknown) => e);
    expect(ended).toBeInstanceOf(WaitError);
    expect((ended as WaitError).session?.status).toBe('exited');

    await startSession(api, { id: 'sdk-life-4', location: 'local-a', image: 'echo', restart: false });
    await waitForStatus(api, 'sdk-life-4', 'running');
    const timedOut = await waitForStatus(api, 'sdk-life-4', 'draining', { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(WaitError);
    expect((timedOut as Error).message).toContain('last seen running');
    unwrap(await api.DELETE('/session/{id}', { params: { path: { id: 'sdk-life-4' } } }));
  });

  it('reports an unreachable service as UnreachableError', async () => {
    const api = createSessionHostClient({ baseUrl: 'http://127.0.0.1:9', token: running.token });
    await expect(api.GET('/account')).rejects.toBeInstanceOf(UnreachableError);
  });
});

describe('the client SDK against a redirect', () => {
  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it("follows none: a 307 to another host gets neither the token nor the body (a start's env)", async () => {
    const heard: string[] = [];
    const elsewhere = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        heard.push(`${request.headers.authorization ?? '-'} ${body}`);
        response.writeHead(201, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    const elsewhereUrl = await listen(elsewhere);
    const front = createServer((_request, response) => response.writeHead(307, { Location: `${elsewhereUrl}/session` }).end());
    const frontUrl = await listen(front);
    try {
      const api = createSessionHostClient({ baseUrl: frontUrl, token: 'gsh_RedirectTestToken00000000000000000000000' });
      const start = api.POST('/session', { body: { id: 'redirected', location: 'local-a', image: 'echo', env: { SECRET: 'hunter2' } } });
      await expect(start).rejects.toThrow(RedirectedError);
      await expect(start).rejects.toThrow(`a redirect to ${elsewhereUrl}/session`);
      expect(heard).toEqual([]);
    } finally {
      front.close();
      elsewhere.close();
    }
  });
});
