/**
 * PostgreSQL stopped for a few seconds under two instances (a restart, a failover), then started
 * again on the same port: both instances stay up and answer /readyz 503 while it is away; a
 * request meanwhile is answered 503 with Retry-After (nothing of it reached the database, a client
 * retries), not the 500 of a bug (outside check attack-c); after, /readyz is 200 again (an event
 * stream open on each through the outage too: its failed reads kept /readyz 503 for good), every
 * write acknowledged before the outage is still there, and starts work again on both.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { contractFetch } from '../support/contract.js';
import { caller } from '../support/http.js';
import { testFleet } from '../support/service.js';
import { startDeployment, type Deployment } from '../support/cluster/deployment.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { openEventStream, type EventStream } from '../support/events.js';
import { startPostgres } from '../support/postgres.mjs';

const BIN = process.env.SESSION_HOST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
const asPostgres = (args: string[]) =>
  process.getuid?.() === 0 ? ['setpriv', '--reuid=postgres', '--regid=postgres', '--clear-groups', '--', ...args] : args;
const pgCtl = (args: string[]) => {
  const [command, ...rest] = asPostgres([join(BIN, 'pg_ctl'), ...args]);
  return execFileSync(command!, rest, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
};

const missing = clusterTestsMissing();
describe.skipIf(missing)(`a PostgreSQL outage under two instances${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let deployment: Deployment;
  let cluster: Awaited<ReturnType<typeof startPostgres>>;
  let options = '';
  let calls: ReturnType<typeof caller>[];

  beforeAll(async () => {
    // A cluster of this file's own: it is stopped and started again below.
    cluster = await startPostgres({ owner: process.pid });
    process.env.SESSION_HOST_POSTGRES_URL = cluster.url;
    // How it was started (port, socket directory, settings), to start it again the same way.
    options = readFileSync(join(cluster.dir, 'data', 'postmaster.opts'), 'utf8').trim().split(' ').slice(1).join(' ').replaceAll('"', '').replace(/^-D \S+ /, '');
    deployment = await startDeployment({
      instances: 2,
      fleet: testFleet((fleet) => (fleet.runtime.driver = 'simulated')),
      env: { RUNTIME: 'simulated', START_RATE_PER_SECOND: '10000', START_BURST: '10000', SIMULATED_READY_MS: '50', SIMULATED_STOP_MS: '30' },
    });
    calls = deployment.instances.map((instance) => caller(instance.url, deployment.token, contractFetch()));
  }, 300_000);
  afterAll(async () => {
    await deployment?.stop();
    cluster?.stop();
  });

  it('stays up through it, is not ready while it lasts, and is again after', { timeout: 300_000 }, async () => {
    const before = [];
    for (let i = 0; i < 4; i++) {
      const r = await calls[i % 2]!('POST', '/session', { body: { location: 'local-a', image: 'echo' } });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      before.push(r.json.id);
    }
    // Open through the outage: its reads of the event log fail meanwhile.
    const streams: EventStream[] = await Promise.all(deployment.instances.map((instance) => openEventStream(instance.url, deployment.token)));
    pgCtl(['stop', '-D', join(cluster.dir, 'data'), '-m', 'immediate', '-w']);
    const down = performance.now();
    for (const instance of deployment.instances) {
      await eventually(async () => (await fetch(`${instance.url}/readyz`)).status, { until: (s) => s === 503, timeoutMs: 30_000, intervalMs: 100 });
    }
    const during = await Promise.all(calls.map((call) => call('POST', '/session', { body: { location: 'local-a', image: 'echo' } })));
    for (const answer of during) {
      expect(answer.status, JSON.stringify(answer.json)).toBe(503);
      expect(answer.json.details).toMatch(/^the database could not be reached: nothing of this request was done; retry after Retry-After seconds$/);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    await new Promise((r) => setTimeout(r, Math.max(0, 5000 - (performance.now() - down))));
    pgCtl(['start', '-w', '-D', join(cluster.dir, 'data'), '-l', join(cluster.dir, 'postgres.log'), '-o', options]);
    for (const instance of deployment.instances) {
      await eventually(async () => (await fetch(`${instance.url}/readyz`)).status, { until: (s) => s === 200, timeoutMs: 60_000, intervalMs: 100 });
    }
    for (const stream of streams) stream.close();
    for (const instance of deployment.instances) expect(instance.alive, instance.output()).toBe(true);
    for (const call of calls) {
      const r = await call('POST', '/session', { body: { location: 'local-a', image: 'echo' } });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      for (const id of before) expect((await call('GET', `/session/${id}`)).status).toBe(200);
    }
  });
});
