/**
 * A full disk under load: the service (a real process, DATA_DIR on a small tmpfs this test
 * mounts) keeps serving, answers what it cannot write 503 with Retry-After (the storage is full:
 * nothing kept, retry; not a 500, which says a bug), reports itself
 * degraded on GET /readyz, recovers by itself once space is back, and loses nothing it
 * acknowledged, across a restart too. Needs root (mount); skipped otherwise.
 */
import { describe, expect, it } from 'vitest';
import { canMount, useServicesOnSmallDisk } from '../support/disk.js';
import { eventually } from '../support/eventually.mjs';
import { caller, expectError, type CallResult } from '../support/http.js';
import { spawnService } from '../support/process.js';
import { TEST_BOOTSTRAP_TOKEN, testFleet, writeFleet } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';
import { mintTokens } from '../support/token-load.js';

/** A write the full disk refused: 503, nothing kept, retry later; the body says why. */
function expectStorageFull(failure: CallResult) {
  expectError(failure, 503, 'SERVICE_UNAVAILABLE', failure.json.path);
  expect(failure.json.details).toContain('storage is full');
  expect(Number(failure.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe.skipIf(!canMount)('a full disk', () => {
  const { disk, dataDir, contract, processes } = useServicesOnSmallDisk(24);

  const start = async () => {
    const started = await spawnService({ DATA_DIR: dataDir, BOOTSTRAP_TOKEN: TEST_BOOTSTRAP_TOKEN, LOG_LEVEL: 'warn' });
    processes.push(started);
    return { ...started, call: caller(started.url, TEST_BOOTSTRAP_TOKEN, contract) };
  };

  it('keeps serving, reports itself degraded, recovers when space returns, loses nothing acknowledged', async () => {
    writeFleet(dataDir, testFleet());
    const service = await start();
    expect((await service.call('GET', '/readyz', { token: null })).json).toEqual({ status: 'ready', problems: [] });

    // A game server that ends while the disk is full: its end must be recorded once space returns.
    const crashing = { id: 'crashes-while-full', location: 'local-a', image: 'echo', env: { ECHO_CRASH_AFTER_MS: '2500' } };
    expect((await service.call('POST', '/session', { body: crashing })).status).toBe(201);
    await waitForStatus(service.call, crashing.id, ['running']);

    const answers: CallResult[] = [];
    // Writes (new tokens) and reads (which queue token last_used flushes), eight clients at once.
    const load = mintTokens(service.call, {
      clients: 8,
      prefix: 'load',
      onAnswer: async (created) => {
        answers.push(created);
        if (created.status === 201) answers.push(await service.call('GET', '/session', { token: created.json.token }));
      },
    });
    const { acknowledged } = load;

    await new Promise((resolve) => setTimeout(resolve, 300));
    const freeSpace = disk!.fill();
    // Long enough for the crash, several last_used flushes (every 2 s) and quota ticks.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const degraded = await service.call('GET', '/readyz', { token: null });
    expect((await service.call('GET', '/healthz', { token: null })).json).toEqual({ status: 'alive' });
    await load.stop();

    expect(service.child.exitCode).toBeNull();
    expect(degraded.status).toBe(503);
    expect(degraded.json.status).toBe('degraded');
    expect(degraded.json.problems.length).toBeGreaterThan(0);
    const failures = answers.filter((a) => a.status !== 200 && a.status !== 201);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expectStorageFull(failure);

    freeSpace();
    await eventually(async () => (await service.call('GET', '/readyz', { token: null })).status, { until: (status) => status === 200, timeoutMs: 10_000, what: 'ready again' });
    expect((await service.call('POST', '/token', { body: { name: 'after-full', scopes: ['session:read'] } })).status).toBe(201);
    acknowledged.push('after-full');
    // The end that happened while the disk was full, recorded as what it was.
    expect(await waitForStatus(service.call, crashing.id, ['dead'])).toMatchObject({ end_reason: 'crashed', exit_code: 3 });

    const names = async (call: typeof service.call) =>
      new Set(((await call('GET', '/token')).json.tokens as { name: string }[]).map((t) => t.name));
    const listed = await names(service.call);
    expect(acknowledged.filter((name) => !listed.has(name))).toEqual([]);

    // A restart loses nothing either.
    await service.kill('SIGKILL');
    const again = await start();
    const relisted = await names(again.call);
    expect(acknowledged.filter((name) => !relisted.has(name))).toEqual([]);
    await again.kill('SIGTERM');
  }, 60_000);

  it('starts again on a disk that is still full, serves reads, and writes once space is back', async () => {
    const freeSpace = disk!.fill();
    const service = await start();
    expect((await service.call('GET', '/token')).status).toBe(200);
    const write = await service.call('POST', '/token', { body: { name: 'while-full', scopes: ['session:read'] } });
    if (write.status !== 201) expectStorageFull(write);
    // Past a last_used flush (every 2 s), which cannot be written.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(service.child.exitCode).toBeNull();
    expect((await service.call('GET', '/session')).status).toBe(200);

    freeSpace();
    await eventually(async () => (await service.call('GET', '/readyz', { token: null })).status, { until: (status) => status === 200, timeoutMs: 10_000, what: 'ready again' });
    expect((await service.call('POST', '/token', { body: { name: 'space-again', scopes: ['session:read'] } })).status).toBe(201);
    await service.kill('SIGTERM');
  }, 60_000);
});
