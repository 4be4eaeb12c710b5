/**
 * A data disk out of inodes (empty files: bytes remain, and the store, whose files exist, still
 * writes): a start that fails for it is logged at warn with its cause, GET /readyz is degraded
 * until inodes are free again, and then starts work. The service is a real process whose data
 * directory is on a small tmpfs this test mounts with few inodes (root only; skipped otherwise).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { canMount, mountSmallDisk } from '../support/disk.js';
import { eventually } from '../support/eventually.mjs';
import { caller } from '../support/http.js';
import { spawnService, type ServiceProcess } from '../support/process.js';
import { reapSessionProcesses, TEST_BOOTSTRAP_TOKEN, testFleet, writeFleet } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

describe.skipIf(!canMount)('a data disk out of inodes', () => {
  const disk = canMount ? mountSmallDisk(128, { inodes: 4000 }) : undefined;
  const dataDir = disk?.dataDir ?? '';
  const contract = contractFetch();
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    await service?.kill('SIGKILL');
    reapSessionProcesses(dataDir);
    disk?.unmount();
    expect(contract.violations).toEqual([]);
  });

  it('logs the failed start at warn with its cause, is degraded until inodes are free, then starts again', async () => {
    writeFleet(dataDir, testFleet());
    service = await spawnService({ DATA_DIR: dataDir, BOOTSTRAP_TOKEN: TEST_BOOTSTRAP_TOKEN, LOG_LEVEL: 'warn' });
    const call = caller(service.url, TEST_BOOTSTRAP_TOKEN, contract);
    expect((await call('GET', '/readyz', { token: null })).json).toEqual({ status: 'ready', problems: [] });

    const freeInodes = disk!.fillInodes();
    const started = await call('POST', '/session', { body: { id: 'no-inodes', location: 'local-a', image: 'echo' } });
    expect(started.status).toBe(201);
    expect(await waitForStatus(call, 'no-inodes', ['dead'])).toMatchObject({ end_reason: 'start_failed' });
    // The store still writes (its files exist): only the failed start says the disk is full.
    expect((await call('POST', '/token', { body: { name: 'while-full', scopes: ['session:read'] } })).status).toBe(201);
    const degraded = await call('GET', '/readyz', { token: null });
    expect(degraded.status).toBe(503);
    expect(degraded.json.problems.map((p: { component: string }) => p.component)).toEqual(['session-directories']);
    const warning = service.output().split('\n').find((line) => line.includes('session start failed'));
    expect(JSON.parse(warning!)).toMatchObject({ level: 40, err: { code: 'ENOSPC' } });

    freeInodes();
    await eventually(async () => (await call('GET', '/readyz', { token: null })).status, { until: (status) => status === 200, timeoutMs: 10_000, what: 'ready again' });
    expect((await call('POST', '/session', { body: { id: 'inodes-back', location: 'local-a', image: 'echo' } })).status).toBe(201);
    await waitForStatus(call, 'inodes-back', ['running']);
  });
});
