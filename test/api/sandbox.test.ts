import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { caller, expectError } from '../support/http.js';
import { spawnService } from '../support/process.js';
import { startService, tempDataDir, TEST_BOOTSTRAP_TOKEN, type RunningService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

describe('the sandbox', () => {
  const contract = contractFetch();
  let clock = Date.now();
  let sandbox: RunningService;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    sandbox = await startService({ sandbox: true, defaultQuotaMinutes: 1 }, { fleet: null, now: () => clock });
    call = caller(sandbox.url, sandbox.token, contract);
  });
  afterAll(async () => {
    await sandbox.close();
    expect(contract.violations).toEqual([]);
  });

  it('starts simulated sessions on documentation addresses, without processes, and charges no quota', async () => {
    const started = await call('POST', '/session', { body: { id: 'sb-1', location: 'local-a', image: 'echo' } });
    expect(started.status).toBe(201);
    expect(started.json.host).toBe('192.0.2.10');
    await waitForStatus(call, 'sb-1', ['running']);
    clock += 5 * 60_000;
    expect((await call('GET', '/account')).json.quota).toEqual({ total: 1, used: 0, remaining: 1 });
    expect((await call('POST', '/session', { body: { id: 'sb-2', location: 'local-a', image: 'echo' } })).status).toBe(201);
    expect((await call('DELETE', '/session/sb-1')).status).toBe(204);
    expect(await waitForStatus(call, 'sb-1', ['exited'])).toMatchObject({ end_reason: 'stopped' });
  });

  it('answers any documented error on demand with X-Sandbox-Status', async () => {
    const body = { id: 'sb-3', location: 'local-a', image: 'echo' };
    const capacity = await call('POST', '/session', { body, headers: { 'X-Sandbox-Status': '420' } });
    expectError(capacity, 420, 'CAPACITY_UNAVAILABLE', '/session');
    expect(capacity.headers.get('retry-after')).toBe('3');
    expect(capacity.json.details).toBe('simulated by X-Sandbox-Status');
    expectError(await call('POST', '/session', { body, headers: { 'X-Sandbox-Status': '403' } }), 403, 'QUOTA_EXCEEDED', '/session');
    expectError(await call('GET', '/session/sb-2', { headers: { 'X-Sandbox-Status': '404' } }), 404, 'RESOURCE_NOT_FOUND', '/session/sb-2');
    // Not documented for GET /account: performed as usual.
    expect((await call('GET', '/account', { headers: { 'X-Sandbox-Status': '420' } })).status).toBe(200);
    // Nothing was started by the simulated errors.
    expectError(await call('GET', '/session/sb-3'), 404, 'RESOURCE_NOT_FOUND', '/session/sb-3');
  });

  it('is the same program, started in sandbox mode on its own address and data directory', async () => {
    const dataDir = tempDataDir();
    const started = await spawnService({ SANDBOX: 'true', DATA_DIR: dataDir, BOOTSTRAP_TOKEN: TEST_BOOTSTRAP_TOKEN });
    try {
      const own = caller(started.url, TEST_BOOTSTRAP_TOKEN, contract);
      const result = await own('POST', '/session', { body: { id: 'own', location: 'local-b', image: 'echo' }, headers: { 'X-Sandbox-Status': '420' } });
      expect(result.status).toBe(420);
      const real = await own('POST', '/session', { body: { id: 'own', location: 'local-b', image: 'echo' } });
      expect(real.json.host).toBe('198.51.100.10');
    } finally {
      await started.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('ignores X-Sandbox-Status outside the sandbox', async () => {
    const production = await startService({ runtime: 'simulated' });
    try {
      const own = caller(production.url, production.token, contract);
      const result = await own('POST', '/session', { body: { id: 'p1', location: 'local-a', image: 'echo' }, headers: { 'X-Sandbox-Status': '420' } });
      expect(result.status).toBe(201);
    } finally {
      await production.close();
    }
  });
});
