/**
 * The coordination port against a real PostgreSQL (and the local implementation against the
 * same promises): the bus reaches every instance and resubscribes after its connection drops,
 * telling listeners to resync; one leader per role with failover when the leader dies; one
 * holder per lease, taken over after its expiry when the holder dies, given up by a holder cut
 * off from the database before anyone else can take it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Claim, Coordination } from '../../server/cluster/coordination.js';
import { LocalCoordination } from '../../server/cluster/local.js';
import { PostgresCoordination } from '../../server/cluster/postgres.js';
import { eventually } from '../support/eventually.mjs';
import { startFreezableProxy } from '../support/cluster/freezable-proxy.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';
import { createDatabase } from '../support/postgres.mjs';

const LEASE_MS = 2500;
const timings = { leases: { leaseMs: LEASE_MS, renewEveryMs: LEASE_MS / 5 }, leaderTryEveryMs: 100 };

/** A claim's history, for assertions. */
function recorder() {
  const log: string[] = [];
  return { log, events: { gained: () => log.push('gained'), lost: () => log.push('lost') } };
}

describe('local coordination (one instance)', () => {
  it('delivers its messages to itself, leads every role and holds every lease at once', async () => {
    const local = new LocalCoordination('solo');
    const seen: string[] = [];
    const unsubscribe = local.subscribe('tokens', (message, origin) => seen.push(`${origin}:${message}`));
    await local.publish('tokens', 'flush');
    unsubscribe();
    await local.publish('tokens', 'unheard');
    expect(seen).toEqual(['solo:flush']);
    const leader = recorder();
    const claim = local.lead('pruning', leader.events);
    expect(claim.held).toBe(true);
    await claim.release();
    expect(leader.log).toEqual(['gained', 'lost']);
    expect(local.lease('node:a', recorder().events).held).toBe(true);
    await local.close();
  });
});

const missing = clusterTestsMissing();
describe.skipIf(missing)(`PostgreSQL coordination${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let url: string;
  const started: Coordination[] = [];
  const children: ChildProcess[] = [];

  async function instance(id: string, databaseUrl = url): Promise<PostgresCoordination> {
    const coordination = await PostgresCoordination.start({ databaseUrl, instanceId: id, ...timings });
    started.push(coordination);
    return coordination;
  }

  /** Another instance in a process of its own (so it can die), leading `role` and holding `lease`. */
  async function childInstance(id: string, role: string, lease: string) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/cluster/coordination-child.ts'], {
      env: { ...process.env, DATABASE_URL: url, INSTANCE_ID: id, ROLE: role, LEASE: lease, LEASE_MS: String(LEASE_MS) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    await eventually(() => output.includes('gained leader') && output.includes('gained lease'), { what: `${id} leading and holding` });
    return child;
  }

  beforeAll(async () => {
    url = await createDatabase('coordination');
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    for (const coordination of started) await coordination.close();
  });

  it('publishes to every instance, the sender included, with the sender as origin', async () => {
    const [a, b] = [await instance('bus-a'), await instance('bus-b')];
    const seen: string[] = [];
    for (const [name, c] of [['a', a], ['b', b]] as const) c.subscribe('tokens', (message, origin) => seen.push(`${name} got ${message} from ${origin}`));
    await a.publish('tokens', 'revoked t1');
    await eventually(() => seen.length === 2, { what: 'both instances hearing the message' });
    expect(seen.sort()).toEqual(['a got revoked t1 from bus-a', 'b got revoked t1 from bus-a']);
  });

  it('after its connection drops, an instance listens again and is told to resync (what was sent meanwhile is lost)', async () => {
    const [a, b] = [await instance('resync-a'), await instance('resync-b')];
    const heard: string[] = [];
    let resyncs = 0;
    b.subscribe('events', (message) => heard.push(message));
    b.onResync(() => resyncs++);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // Cut b's dedicated connection from the server's side.
    await terminateListener(admin, 'resync-b');
    await eventually(() => resyncs === 1, { what: 'the resync after the reconnect' });
    await a.publish('events', '42');
    await eventually(() => heard.includes('42'), { what: 'a message after the reconnect' });
    await admin.end();
  });

  it('elects one leader per role and fails over within seconds when the leader dies', async () => {
    const leader = await childInstance('leader-child', 'quota-enforcer', 'unused-1');
    const follower = recorder();
    const other = recorder();
    const claims = [(await instance('follower-1')).lead('quota-enforcer', follower.events), (await instance('follower-2')).lead('quota-enforcer', other.events)];
    // While the child leads, neither follower does (they keep trying).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(claims.map((c) => c.held)).toEqual([false, false]);
    const diedAt = Date.now();
    leader.kill('SIGKILL');
    await once(leader, 'exit');
    const newLeader = (await eventually(() => claims.find((c) => c.held), { what: 'a new leader', timeoutMs: 5000 }))!;
    expect(Date.now() - diedAt).toBeLessThan(5000);
    // Exactly one took over.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(claims.filter((c) => c.held)).toEqual([newLeader]);
    // Released leadership passes on.
    await newLeader.release();
    const next = claims.find((c) => c !== newLeader)!;
    await eventually(() => next.held, { what: 'the other follower leading after a release' });
  });

  it('gives a lease to one instance, and another takes it over once the dead holder’s lease expires', async () => {
    const holder = await childInstance('lease-child', 'unused-2', 'node:docker-1');
    const claims: Claim[] = [];
    const logs: string[][] = [];
    for (const id of ['lease-1', 'lease-2']) {
      const r = recorder();
      logs.push(r.log);
      claims.push((await instance(id)).lease('node:docker-1', r.events));
    }
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    expect(claims.map((c) => c.held)).toEqual([false, false]);
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    const taker = (await eventually(() => claims.find((c) => c.held), { what: 'the lease taken over', timeoutMs: 3 * LEASE_MS + 2000 }))!;
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
    expect(claims.filter((c) => c.held)).toEqual([taker]);
    expect(logs.flat()).toEqual(['gained']);
    // A release hands it over at once.
    await taker.release();
    await eventually(() => claims.find((c) => c !== taker)!.held, { what: 'the lease passed on after a release' });
  });

  it('a holder cut off from the database gives the lease up before another instance can take it', async () => {
    const proxied = new URL(url);
    const proxy = await startFreezableProxy(Number(proxied.port));
    proxied.port = String(proxy.port);
    const cutOff = recorder();
    const cutOffAt: number[] = [];
    const isolated = await instance('isolated', proxied.toString());
    const claim = isolated.lease('node:docker-2', { gained: cutOff.events.gained, lost: () => (cutOff.events.lost(), cutOffAt.push(performance.now())) });
    await eventually(() => claim.held, { what: 'the isolated instance holding the lease' });
    const other = recorder();
    const takenAt: number[] = [];
    const rival = (await instance('rival')).lease('node:docker-2', { gained: () => (other.events.gained(), takenAt.push(performance.now())), lost: other.events.lost });
    proxy.freeze();
    await eventually(() => rival.held, { what: 'the rival taking the lease', timeoutMs: 4 * LEASE_MS });
    expect(cutOff.log).toEqual(['gained', 'lost']);
    // The cut-off holder stopped believing before the rival started.
    expect(cutOffAt[0]!).toBeLessThan(takenAt[0]!);
    await proxy.close();
  });

  it('each database keeps its own leases (a second deployment on the same server is independent)', async () => {
    const otherUrl = await createDatabase('coordination_other');
    const here = await instance('here');
    const there = await instance('there', otherUrl);
    const a = here.lease('node:x', recorder().events);
    const b = there.lease('node:x', recorder().events);
    await eventually(() => a.held && b.held, { what: 'both holding their own database’s lease' });
  });
});

/** Terminates the backend that LISTENs for an instance (its dedicated connection). */
async function terminateListener(admin: pg.Client, instanceId: string): Promise<void> {
  const result = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
    `session-host ${instanceId} listener`,
  ]);
  expect(result.rowCount).toBe(1);
}
