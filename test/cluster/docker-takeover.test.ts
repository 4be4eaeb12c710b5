/**
 * Docker nodes move between instances (issue 17): two instances on PostgreSQL share a Docker
 * node; one holds its lease and supervises its containers. SIGKILL the holder and the other takes
 * the lease over within seconds and adopts the containers (server/cluster/node-supervision.ts,
 * server/runtime/docker/): a stop through it really stops its container, the logs stay readable,
 * a container that ends on its own is recorded as ended, and each session is charged once. Uses
 * engine 1 only: the docker tier takes engine 2 down meanwhile (test/api/docker-runtime.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { containerOf, docker, dockerFleet, engines, nodeIn, removeLeftovers, sdkAllocationProbe, skipReason } from '../support/docker.js';
import { startDeployment, type Deployment, type Instance } from '../support/cluster/deployment.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';

const NODE = 'dock-1';
const PREFIX = `takeover-${Math.random().toString(36).slice(2, 6)}-`;
const instanceIdOf = (instance: Instance) => (JSON.parse(readFileSync(join(instance.dataDir, 'instance.json'), 'utf8')) as { id: string }).id;

const missing = clusterTestsMissing() ?? (engines.length < 1 ? skipReason : undefined);
describe.skipIf(missing)(`a Docker node taken over when its holder dies${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let deployment: Deployment;
  let db: pg.Client;

  beforeAll(async () => {
    const fleet = dockerFleet((f) => {
      f.locations = [{ ...f.locations[0]!, nodes: [f.locations[0]!.nodes[0]!] }];
      f.runtime.stopGraceSeconds = 2;
    });
    deployment = await startDeployment({ instances: 2, fleet });
    db = new pg.Client({ connectionString: deployment.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await deployment?.stop();
    await removeLeftovers(PREFIX);
  });

  const call = async (instance: Instance, method: string, path: string, body?: unknown) => {
    const response = await fetch(instance.url + path, {
      method,
      headers: { Authorization: `Bearer ${deployment.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, text: await response.text() };
  };
  const statusOf = async (id: string) => (await db.query<{ status: string }>('SELECT status FROM sessions WHERE id = $1', [id])).rows[0]?.status;
  const holderOf = async (nodeId: string) =>
    (await db.query<{ holder: string }>('SELECT holder FROM cluster_leases WHERE name = $1 AND expires_at > clock_timestamp()', [`node:${nodeId}`])).rows[0]?.holder;
  const running = async (via: Instance, id: string) => {
    expect((await call(via, 'POST', '/session', { id, location: 'dock', image: 'echo' })).status).toBe(201);
    await eventually(() => statusOf(id), { until: (s) => s === 'running', what: `${id} running`, timeoutMs: 30_000 });
    return (await containerOf(id)).info.Id;
  };
  const containerRunning = async (id: string) => (await docker(engines[0]!).getContainer(id).inspect()).State.Running;

  it('adopts the dead holder\'s containers: a stop through the survivor works, logs read, an exit is recorded', { timeout: 120_000 }, async () => {
    const holderId = await eventually(() => holderOf(NODE), { what: `a holder of ${NODE}`, timeoutMs: 30_000 });
    const holder = deployment.instances.find((instance) => instanceIdOf(instance) === holderId)!;
    const survivor = deployment.instances.find((instance) => instance !== holder)!;
    // One launched by the holder, one launched by the other and handed to the holder.
    const toStop = `${PREFIX}stop`;
    const toExit = `${PREFIX}exit`;
    const stopContainer = await running(holder, toStop);
    const exitContainer = await running(survivor, toExit);

    const killedAt = performance.now();
    await holder.kill('SIGKILL');
    await eventually(() => holderOf(NODE), { until: (h) => h === instanceIdOf(survivor), what: 'the lease taken over', timeoutMs: 30_000 });
    const leaseMovedMs = performance.now() - killedAt;
    // The game-server SDK of the dead holder's container, served again by the survivor where that
    // container sees it (a socket under the dead holder's data directory).
    const allocation = await eventually(() => nodeIn(toStop, sdkAllocationProbe()), { until: (out) => out.startsWith('{'), what: 'the SDK served again', timeoutMs: 30_000 });
    expect(JSON.parse(allocation)).toMatchObject({ state: 'allocated', session: { id: toStop } });

    expect((await call(survivor, 'DELETE', `/session/${toStop}`)).status).toBe(204);
    await eventually(() => statusOf(toStop), { until: (s) => s === 'exited', what: 'the stop carried out', timeoutMs: 30_000 });
    const stoppedMs = performance.now() - killedAt;
    expect(await containerRunning(stopContainer)).toBe(false);
    const logs = await call(survivor, 'GET', `/logs?id=${toStop}`);
    expect(logs.status).toBe(200);
    expect(logs.text).toContain(`echo server for session ${toStop}`);

    // Ended from outside the service: only a supervisor watching the engine records it.
    await docker(engines[0]!).getContainer(exitContainer).kill({ signal: 'SIGTERM' });
    await eventually(() => statusOf(toExit), { until: (s) => s === 'dead', what: 'the end recorded', timeoutMs: 30_000 });
    const live = await db.query("SELECT 1 FROM sessions WHERE status NOT IN ('exited', 'dead')");
    expect(live.rowCount).toBe(0);
    // Quota exact: each session charged once, from its start to its end, whichever instance ended it.
    const charged = await db.query<{ used: number; runs: number }>(
      'SELECT a.used_seconds::float8 AS used, sum(ceil((s.ended - s.created) / 1000.0))::float8 AS runs FROM accounts a JOIN sessions s ON s.account_id = a.id GROUP BY a.id',
    );
    expect(charged.rows).toEqual([{ used: charged.rows[0]!.runs, runs: expect.any(Number) }]);
    expect(charged.rows[0]!.runs).toBeGreaterThan(0);
    console.log(`docker takeover: lease moved ${leaseMovedMs.toFixed(0)} ms after the SIGKILL, stop through the survivor done ${stoppedMs.toFixed(0)} ms after it`);
  });
});
