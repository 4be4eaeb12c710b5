/**
 * One instance's clock far off: two instances on one PostgreSQL, the second started with its
 * wall clock an hour behind (Date.now shifted by a preload, as a machine without NTP would be).
 * Times it writes are read against the other's clock: a session it launched was charged an hour
 * of quota at once by the first, and shown created an hour ago. Its service clock follows the
 * database's instead (server/clock.ts, sharedWall), and it says so at start.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testFleet } from '../support/service.js';
import { startDeployment, type Deployment } from '../support/cluster/deployment.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';

const BEHIND_MS = 3_600_000;

const missing = clusterTestsMissing();
describe.skipIf(missing)(`an instance whose clock is an hour behind${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let deployment: Deployment;
  const dir = mkdtempSync(join(tmpdir(), 'clock-skew-'));
  const call = (instance: number, method: string, path: string, body?: unknown) =>
    fetch(deployment.instances[instance]!.url + path, {
      method,
      headers: { Authorization: `Bearer ${deployment.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  const json = async (response: Promise<Response>) => (await (await response).json()) as { quota: { used: number }; created: number };

  beforeAll(async () => {
    const preload = join(dir, 'behind.mjs');
    writeFileSync(preload, `const real = Date.now; Date.now = () => real() - ${BEHIND_MS};\n`);
    deployment = await startDeployment({
      instances: 2,
      fleet: testFleet(),
      env: { RUNTIME: 'simulated' },
      instanceEnv: (i): Record<string, string> => (i === 2 ? { NODE_OPTIONS: `--import ${preload}` } : {}),
    });
  });
  afterAll(async () => {
    await deployment?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('charges and shows what it launched by the database’s time, not its own', async () => {
    const usedBefore = (await json(call(0, 'GET', '/account'))).quota.used;
    const started = await call(1, 'POST', '/session', { id: 'skewed-1', location: testFleet().locations[0]!.id, image: 'echo' });
    expect(started.status).toBe(201);
    const used = (await json(call(0, 'GET', '/account'))).quota.used;
    // Without the fix: 60 minutes more, charged the moment the session was launched.
    expect(used - usedBefore).toBeLessThan(1);
    const session = await json(call(0, 'GET', '/session/skewed-1'));
    // Created "now" by the first instance's clock (without the fix: an hour ago).
    expect(Math.abs(session.created - Date.now())).toBeLessThan(60_000);
    expect(deployment.instances[1]!.output()).toMatch(/clock is 3600\.\d s behind the database's/);
    expect((await call(0, 'DELETE', '/session/skewed-1')).status).toBe(204);
  });
});
