/**
 * The process runtime with several instances: a session belongs to the instance that launched
 * it (its supervisor lives on that instance's host). A stop received by another instance is
 * recorded and sent to the owner over the bus, and the game server really stops. With the owner
 * dead, the stop is recorded (204) and carried out when the owner starts again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { reapSessionProcesses, testFleet } from '../support/service.js';
import { startDeployment, type Deployment, type Instance } from '../support/cluster/deployment.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';

const missing = clusterTestsMissing();
// Generous: on 2 busy cores an instance takes tens of seconds to start again, a sandboxed start seconds.
describe.skipIf(missing)(`process-runtime sessions with several instances${missing ? ` (skipped: ${missing})` : ''}`, { timeout: 240_000 }, () => {
  let deployment: Deployment;
  let db: pg.Client;

  beforeAll(async () => {
    deployment = await startDeployment({ instances: 3, fleet: testFleet(), env: { RUNTIME: 'process' } });
    db = new pg.Client({ connectionString: deployment.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    for (const instance of deployment?.instances ?? []) await instance.kill('SIGKILL');
    for (const instance of deployment?.instances ?? []) await reapSessionProcesses(instance.dataDir);
    await deployment?.stop();
  });

  const call = async (instance: Instance, method: string, path: string, body?: unknown) => {
    const response = await fetch(instance.url + path, {
      method,
      headers: { Authorization: `Bearer ${deployment.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
  const statusOf = async (id: string) => (await db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [id])).rows[0]?.status;
  /** The game server's pid, from its supervisor's state in the owner's data directory. */
  const gamePidOf = async (owner: Instance, id: string) => {
    const { key } = (await db.query<{ key: string }>('SELECT key FROM sessions WHERE id = $1', [id])).rows[0]!;
    return (JSON.parse(readFileSync(join(owner.dataDir, 'sessions', key, 'state.json'), 'utf8')) as { gamePid: number }).gamePid;
  };
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const startRunning = async (owner: Instance, id: string) => {
    expect((await call(owner, 'POST', '/session', { id, location: 'local-a', image: 'echo' })).status).toBe(201);
    await eventually(() => statusOf(id), { until: (s) => s === 'running', what: `${id} running`, timeoutMs: 60_000 });
    const pid = await gamePidOf(owner, id);
    expect(alive(pid)).toBe(true);
    return pid;
  };

  it('stops a session through another instance than the one that launched it, for real', async () => {
    const [owner, other] = deployment.instances as [Instance, Instance];
    const pid = await startRunning(owner, 'stop-elsewhere');
    expect((await call(other, 'DELETE', '/session/stop-elsewhere')).status).toBe(204);
    await eventually(() => statusOf('stop-elsewhere'), { until: (s) => s === 'exited', what: 'the session ended', timeoutMs: 60_000 });
    await eventually(() => alive(pid), { until: (up) => !up, what: 'the game server gone', timeoutMs: 60_000 });
  });

  it('records a stop while the owner is dead, and carries it out when the owner starts again', async () => {
    const [owner, other] = deployment.instances as [Instance, Instance];
    const pid = await startRunning(owner, 'owner-dies');
    await owner.kill('SIGKILL');
    expect((await call(other, 'DELETE', '/session/owner-dies')).status).toBe(204);
    expect(await statusOf('owner-dies')).toBe('shuttingdown');
    // Nobody else may stop it (its supervisor is the owner's): it runs on until the owner is back.
    expect(alive(pid)).toBe(true);
    await owner.start();
    await eventually(() => statusOf('owner-dies'), { until: (s) => s === 'exited', what: 'the recorded stop carried out', timeoutMs: 60_000 });
    await eventually(() => alive(pid), { until: (up) => !up, what: 'the game server gone', timeoutMs: 60_000 });
  });
});
