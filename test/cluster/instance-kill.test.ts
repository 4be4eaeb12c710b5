/**
 * SIGKILL one instance under load, several times (issue 17): three instances behind HAProxy on
 * PostgreSQL, a steady stream of starts and stops (each a webhook-producing change) through
 * HAProxy, and each round the instance supervising the nodes is killed, then started again.
 *
 * - Every acknowledged write (a 2xx) is there afterwards. A request whose connection the kill
 *   cut (HAProxy's 502, a reset) was never acknowledged: its outcome is unknown, and the test
 *   only looks it up in the store, counting what was written anyway.
 * - Webhooks: every event reaches the receiver, in order per subscription; the only repeats
 *   allowed are of the delivery in flight at a kill (sent, not yet recorded), with the same
 *   Webhook-Id.
 * - Supervision: the killed instance's nodes are taken over within seconds (the lease moves;
 *   sessions it was starting reach `running`, stops recorded meanwhile finish) before it comes
 *   back; afterwards every live session stops through an instance that does not supervise it.
 * - An event stream on a surviving instance goes on through the kill, and a reconnect with
 *   Last-Event-ID (through HAProxy, to any instance) replays exactly the log after it.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { openEventStream, type EventStream } from '../support/events.js';
import { testFleet } from '../support/service.js';
import { startDeployment, type Deployment, type Instance } from '../support/cluster/deployment.js';
import { clusterTestsMissing } from '../support/cluster/haproxy.js';

const ROUNDS = 3;
/** How long after an instance's exit is seen a request it wrote before dying may still be read. */
const IN_FLIGHT_MS = 100;
const WORKERS = 3;
/** Live sessions the load keeps (the two nodes hold 64). */
const LIVE = 8;
const NODES = ['local-a-1', 'local-b-1'];

const instanceIdOf = (instance: Instance) => (JSON.parse(readFileSync(join(instance.dataDir, 'instance.json'), 'utf8')) as { id: string }).id;

const missing = clusterTestsMissing();
describe.skipIf(missing)(`SIGKILL of an instance under load${missing ? ` (skipped: ${missing})` : ''}`, () => {
  let deployment: Deployment;
  let db: pg.Client;
  let hook: ReturnType<typeof createServer>;
  /** Every webhook POST, in arrival order: [Webhook-Id, arrival time]. */
  const received: { id: string; at: number }[] = [];

  beforeAll(async () => {
    hook = createServer((request, response) => {
      received.push({ id: String(request.headers['webhook-id']), at: performance.now() });
      request.resume();
      response.end();
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    deployment = await startDeployment({
      instances: 3,
      fleet: testFleet((fleet) => (fleet.runtime.driver = 'simulated')),
      env: {
        RUNTIME: 'simulated',
        START_RATE_PER_SECOND: '10000',
        START_BURST: '10000',
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        WEBHOOK_BACKOFF_MS: '200',
      },
    });
    db = new pg.Client({ connectionString: deployment.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await deployment?.stop();
    hook?.close();
  });

  const call = async (base: string, method: string, path: string, body?: unknown) => {
    try {
      const response = await fetch(base + path, {
        method,
        headers: { Authorization: `Bearer ${deployment.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined };
    } catch {
      // The connection died (the instance behind it was killed): no answer at all.
      return { status: 0, json: undefined };
    }
  };

  const nodeHolders = async () =>
    new Map(
      (await db.query<{ name: string; holder: string }>("SELECT name, holder FROM cluster_leases WHERE name LIKE 'node:%' AND expires_at > clock_timestamp()")).rows.map(
        (row) => [row.name.slice('node:'.length), row.holder],
      ),
    );
  const statusOf = async (keys: string[]) =>
    (await db.query<{ status: string }>('SELECT status FROM sessions WHERE id = ANY($1::text[])', [keys])).rows.map((row) => row.status);

  // Three rounds, each starting the killed instance again (Node and tsx: past 60 s once at load 22 on 2 cores).
  it('loses no acknowledged write, delivers every webhook in order, keeps every session supervised and every stream going', { timeout: 600_000 }, async () => {
    const subscribed = await call(deployment.url, 'POST', '/subscription', { url: `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook` });
    expect(subscribed.status).toBe(201);
    const subscriptionId: string = subscribed.json.id;
    const firstEvent = Number((await db.query<{ max: string | null }>('SELECT max(id) AS max FROM session_events')).rows[0]!.max ?? 0);

    // The load: starts and stops through HAProxy, every answer kept.
    const started: string[] = [];
    /** Acknowledged starts not yet asked to stop, oldest first. */
    const live: string[] = [];
    const stopped: string[] = [];
    const unknown: { what: 'start' | 'stop'; id: string; status: number }[] = [];
    let running = true;
    let next = 0;
    /** Starts refused for want of room (slots of sessions still stopping): not writes. */
    let full = 0;
    const worker = async () => {
      while (running) {
        const id = `load-${next++}`;
        const start = await call(deployment.url, 'POST', '/session', { id, location: next % 2 ? 'local-a' : 'local-b', image: 'echo' });
        if (start.status === 201) started.push(id), live.push(id);
        else if (start.status === 0 || start.status >= 500) unknown.push({ what: 'start', id, status: start.status });
        else if (start.status === 420) full++;
        else throw new Error(`start ${id}: ${start.status} ${JSON.stringify(start.json)}`);
        if (live.length <= LIVE) continue;
        const victim = live.shift()!;
        const stop = await call(deployment.url, 'DELETE', `/session/${victim}`);
        if (stop.status === 204) stopped.push(victim);
        else if (stop.status === 0 || stop.status >= 500) unknown.push({ what: 'stop', id: victim, status: stop.status });
        else throw new Error(`stop ${victim}: ${stop.status} ${JSON.stringify(stop.json)}`);
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, worker));

    const takeovers: { leaseSeconds: number; supervisedSeconds: number }[] = [];
    const kills: number[] = [];
    const streamed: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const ids = new Map(deployment.instances.map((instance) => [instanceIdOf(instance), instance]));
      const holders = await eventually(nodeHolders, { until: (h) => NODES.every((n) => h.has(n)), what: 'every node supervised' });
      const victim = ids.get(holders.get(NODES[0]!)!)!;
      const observer = deployment.instances.find((instance) => instance !== victim)!;
      const stream: EventStream = await openEventStream(observer.url, deployment.token);
      await stream.waitFor((events) => events.length >= 5, 20_000);

      const victimId = instanceIdOf(victim);
      const victimNodes = NODES.filter((n) => holders.get(n) === victimId);
      const starting = (await db.query<{ id: string }>("SELECT id FROM sessions WHERE status IN ('created', 'draining', 'shuttingdown') AND node_id = ANY($1::text[])", [victimNodes])).rows.map((r) => r.id);
      const seenAtKill = stream.events.length;
      const killedAt = performance.now();
      await victim.kill('SIGKILL');
      // A POST the victim wrote before it died can be read here after its exit is seen: the kill's
      // moment, for the repeats below, is its exit observed plus a moment for such bytes in flight.
      kills.push(performance.now() + IN_FLIGHT_MS);

      // The nodes move to a live instance, and the sessions the dead one was starting or stopping move on.
      await eventually(nodeHolders, { until: (h) => victimNodes.every((n) => h.has(n) && h.get(n) !== victimId), what: 'the nodes taken over', timeoutMs: 30_000, intervalMs: 50 });
      const leaseSeconds = (performance.now() - killedAt) / 1000;
      await eventually(() => statusOf(starting), {
        until: (statuses) => statuses.every((s) => s === 'running' || s === 'exited' || s === 'dead'),
        what: `sessions the killed instance was starting or stopping (${starting.length}) moving on`,
        timeoutMs: 30_000,
        intervalMs: 50,
      });
      takeovers.push({ leaseSeconds, supervisedSeconds: (performance.now() - killedAt) / 1000 });

      // The stream on the survivor went on through the kill.
      await stream.waitFor((events) => events.length >= seenAtKill + 5, 20_000);
      streamed.push(stream.events.length - seenAtKill);
      await victim.start();
      await eventually(() => deployment.haproxy!.states(), { until: (s) => Object.values(s).every((state) => state === 'UP'), what: 'the instance back in' });

      // A reconnect with Last-Event-ID, through HAProxy to whichever instance, replays the log after it.
      // (A fresh stream begins with a snapshot of the live sessions, all at the latest id: changes follow.)
      const changes = (s: EventStream) => s.events.filter((e) => e.event !== 'snapshot').map((e) => Number(e.id));
      const lastSeen = changes(stream).at(-1)!;
      const firstSeen = changes(stream)[0]!;
      stream.close();
      const resumed = await openEventStream(deployment.url, deployment.token, String(lastSeen));
      await resumed.waitFor((events) => events.length >= 5, 20_000);
      resumed.close();
      const seen = [...changes(stream), ...changes(resumed)];
      const last = seen.at(-1)!;
      const logged = (await db.query<{ id: string }>('SELECT id FROM session_events WHERE id BETWEEN $1 AND $2 ORDER BY id', [firstSeen, last])).rows.map((r) => Number(r.id));
      expect(seen).toEqual(logged);
    }
    running = false;
    await load;

    // Every acknowledged start is in the store; every acknowledged stop ends its session.
    const stored = async (ids: string[]) =>
      new Map((await db.query<{ id: string; status: string }>('SELECT id, status FROM sessions WHERE id = ANY($1::text[])', [ids])).rows.map((r) => [r.id, r.status]));
    const startedNow = await stored(started);
    expect(started.filter((id) => !startedNow.has(id))).toEqual([]);
    await eventually(async () => [...(await stored(stopped))].filter(([, status]) => status !== 'exited' && status !== 'dead'), {
      until: (left) => left.length === 0,
      what: 'every acknowledged stop finished',
      timeoutMs: 30_000,
    });
    expect((await stored(stopped)).size).toBe(new Set(stopped).size);
    // Unknown outcomes: looked up, not counted as lost (nor as written).
    const unknownWritten = (await stored(unknown.map((u) => u.id))).size;

    // Every live session is supervised: a stop through an instance that does not supervise its node ends it.
    const holders = await eventually(nodeHolders, { until: (h) => NODES.every((n) => h.has(n)), what: 'every node supervised' });
    const ids = new Map(deployment.instances.map((instance) => [instanceIdOf(instance), instance]));
    const left = (await db.query<{ id: string; node_id: string }>("SELECT id, node_id FROM sessions WHERE status NOT IN ('exited', 'dead')")).rows;
    expect(left.length).toBeGreaterThan(0);
    const liveIds: string[] = [];
    for (const session of left) {
      // One account: the session's id is unique.
      const elsewhere = deployment.instances.find((instance) => instance !== ids.get(holders.get(session.node_id)!))!;
      const stop = await call(elsewhere.url, 'DELETE', `/session/${session.id}`);
      expect([204, 410], session.id).toContain(stop.status);
      liveIds.push(session.id);
    }
    await eventually(() => statusOf(liveIds), { until: (s) => s.every((status) => status === 'exited' || status === 'dead'), what: 'every live session stopped', timeoutMs: 30_000 });

    // Webhooks: every event of the log, in order; repeats only of the delivery in flight at a kill.
    const events = (await db.query<{ id: string }>('SELECT id FROM session_events WHERE id > $1 ORDER BY id', [firstEvent])).rows.map((r) => Number(r.id));
    await eventually(() => new Set(received.map((r) => r.id)).size, { until: (n) => n >= events.length, what: `webhooks for ${events.length} events`, timeoutMs: 60_000 });
    const ours = received.filter((r) => r.id.startsWith(`${subscriptionId}:`)).map((r) => ({ event: Number(r.id.split(':')[1]), at: r.at }));
    expect([...new Set(ours.map((r) => r.event))].sort((a, b) => a - b)).toEqual(events);
    const repeats = ours.filter((r, i) => ours.findIndex((o) => o.event === r.event) !== i);
    for (const repeat of repeats) {
      const first = ours.find((o) => o.event === repeat.event)!;
      // The first delivery arrived just before a kill, and nothing after it did until the repeat.
      expect(kills.some((kill) => first.at <= kill && ours.every((o) => o.at <= first.at || o.at >= kill)), `event ${repeat.event} repeated: first at ${first.at}, again at ${repeat.at}, kills at ${kills.join(', ')}, arrivals between: ${ours.filter((o) => o.at > first.at && o.at < repeat.at).length}`).toBe(true);
    }
    const firstArrivals = ours.filter((r, i) => ours.findIndex((o) => o.event === r.event) === i).map((r) => r.event);
    expect(firstArrivals).toEqual(events);

    console.log(
      `instance kill: ${ROUNDS} kills; takeover (lease moved) ${takeovers.map((t) => t.leaseSeconds.toFixed(2)).join(', ')} s; ` +
        `supervised again (sessions moving on) ${takeovers.map((t) => t.supervisedSeconds.toFixed(2)).join(', ')} s; ` +
        `${started.length} starts and ${stopped.length} stops acknowledged, all present (${full} starts refused as full); ${unknown.length} cut by a kill (${unknownWritten} written anyway); ` +
        `${events.length} events, ${ours.length} webhook POSTs (${repeats.length} repeats at a kill); streamed through kills: ${streamed.join(', ')} events; ${left.length} live sessions stopped elsewhere`,
    );
  });
});
