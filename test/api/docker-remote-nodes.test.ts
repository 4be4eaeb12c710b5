/**
 * Remote nodes: three Docker engines, each in a network namespace of its own (a host of its own)
 * reached only over mutual TLS at its veth address, a players' namespace, and a registry
 * (test/docker/start-remote-engines.sh). Sessions are played from the players' namespace at their
 * node's address; the engine's identity and ours are checked; an engine killed and started
 * again, a host gone for good, registry pulls.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineOptions } from '../../server/runtime/docker/engine-client.js';
import { contractFetch } from '../support/contract.js';
import { caller, expectError } from '../support/http.js';
import { panelCaller } from '../support/per-account-ids.js';
import {
  echoGame,
  hostOf,
  REGISTRY_IMAGE,
  REMOTE_BASE,
  remoteDocker,
  remoteEngines,
  remoteFleet,
  remoteSkipReason,
  startRemoteEngines,
  stopRemoteNode,
  tlsFiles,
} from '../support/remote-nodes.js';
import { startService, type RunningService } from '../support/service.js';
import { hostPort, waitForStatus } from '../support/sessions.js';

const skip = remoteEngines.length < 3;
const newId = () => `rn-${Math.random().toString(36).slice(2, 10)}`;
type Call = ReturnType<typeof caller>;

async function startPlaying(call: Call, location: string, image = 'echo') {
  const id = newId();
  const started = await call('POST', '/session', { body: { id, location, image } });
  expect(started.status).toBe(201);
  return waitForStatus(call, id, ['running'], 60_000);
}

/** The players' echo game against a session, retried while Docker's proxy accepts before the game server listens. */
async function play(session: { id: string; host: string; ports: { type: string; host: number }[] }, text: string) {
  const expected = JSON.stringify([`echo ${session.id} ${text}`, `echo ${session.id} ${text}`]);
  await expect.poll(() => echoGame(session.host, hostPort(session, 'udp'), hostPort(session, 'tcp'), text), { timeout: 15_000, interval: 500 }).toBe(expected);
}

/** A service on the remote nodes for the describe block; the engines (re)started first and after. */
function useRemoteService(nodeLostAfterSeconds: number) {
  const contract = contractFetch();
  const frame = { contract } as { running: RunningService; call: Call; contract: typeof contract };
  beforeAll(async () => {
    // Idempotent: makes again what an earlier run took down (a deleted namespace).
    await startRemoteEngines();
    frame.running = await startService({}, { fleet: remoteFleet((f) => (f.runtime.nodeLostAfterSeconds = nodeLostAfterSeconds)) });
    frame.call = caller(frame.running.url, frame.running.token, contract);
  });
  afterAll(async () => {
    await frame.running?.close();
    await startRemoteEngines();
    expect(contract.violations).toEqual([]);
  });
  return frame;
}

describe.skipIf(skip)(`remote docker nodes over mutual TLS${skip ? ` (skipped: ${remoteSkipReason})` : ''}`, () => {
  const frame = useRemoteService(120);
  const { contract } = frame;
  let call: Call;
  beforeAll(() => void (call = frame.call));

  it.each([1, 2, 3])('runs a session on node r%i, played from the players’ namespace at the node’s address', async (n) => {
    const session = await startPlaying(call, `remote-${n}`);
    expect(session.host).toBe(hostOf(remoteEngines[n - 1]!));
    await play(session, `hello r${n}`);
    expect((await call('DELETE', `/session/${session.id}`)).status).toBe(204);
    expect(await waitForStatus(call, session.id, ['exited', 'dead'], 30_000)).toMatchObject({ status: 'exited', end_reason: 'stopped' });
  });

  it('refuses engines and clients with the wrong certificates', async () => {
    // Our side: a client certificate from another CA, or none, is refused by the engine.
    await expect(remoteDocker(1, tlsFiles('rogue-client')).ping()).rejects.toThrow();
    await expect(new Docker({ ...engineOptions(remoteEngines[0]!), timeout: 5000 }).ping()).rejects.toThrow();
    const anonymous = new Docker({ host: hostOf(remoteEngines[0]!), port: 2376, protocol: 'https', ca: readFileSync(tlsFiles().ca), timeout: 5000 });
    await expect(anonymous.ping()).rejects.toThrow();
    // The engine's side: a service trusting another CA takes the real engine for an impostor, and
    // the service with a client certificate the engine does not trust gets no answer: no node.
    for (const tls of [tlsFiles('client', 'rogue-ca'), tlsFiles('rogue-client')]) {
      const other = await startService({}, { fleet: remoteFleet((f) => (f.locations = [{ ...f.locations[0]!, nodes: [{ ...f.locations[0]!.nodes[0]!, docker: { ...f.locations[0]!.nodes[0]!.docker!, tls } }] }])) });
      try {
        const otherCall = caller(other.url, other.token, contract);
        await expect.poll(async () => (await otherCall('POST', '/session', { body: { id: newId(), location: 'remote-1', image: 'echo' } })).status, { timeout: 15_000 }).toBe(420);
      } finally {
        await other.close();
      }
    }
  });

  it('pulls an image named by a registry on the node before the start; an unpullable one ends start_failed', async () => {
    await remoteDocker(1).getImage(REGISTRY_IMAGE).remove({ force: true }).catch(() => {});
    const session = await startPlaying(call, 'remote-1', 'pulled');
    await play(session, 'pulled');
    expect((await remoteDocker(1).getImage(REGISTRY_IMAGE).inspect()).RepoTags).toContain(REGISTRY_IMAGE);
    expect((await call('DELETE', `/session/${session.id}`)).status).toBe(204);

    const id = newId();
    expect((await call('POST', '/session', { body: { id, location: 'remote-1', image: 'unpullable' } })).status).toBe(201);
    expect(await waitForStatus(call, id, ['dead'], 30_000)).toMatchObject({ end_reason: 'start_failed' });
  });

  it('drains a remote node: no new sessions there, its live one plays on to its end, then it says drained', async () => {
    const panel = await panelCaller(frame.running, contract);
    const nodeR1 = async () =>
      (await panel('GET', '/admin/api/location')).json.locations.flatMap((l: { nodes: { id: string }[] }) => l.nodes).find((n: { id: string }) => n.id === 'r1');
    const live = await startPlaying(call, 'remote-1');
    expect((await panel('PATCH', '/admin/api/node/r1', { body: { drain: true } })).json).toMatchObject({ id: 'r1', drain: 'draining', health: 'up' });
    try {
      expectError(await call('POST', '/session', { body: { id: newId(), location: 'remote-1', image: 'echo' } }), 420, 'CAPACITY_UNAVAILABLE', '/session');
      await play(live, 'still here');
      expect((await call('DELETE', `/session/${live.id}`)).status).toBe(204);
      await waitForStatus(call, live.id, ['exited', 'dead'], 30_000);
      expect(await nodeR1()).toMatchObject({ drain: 'drained', used: 0 });
    } finally {
      expect((await panel('PATCH', '/admin/api/node/r1', { body: { drain: false } })).json).toMatchObject({ drain: 'none' });
    }
    const after = await startPlaying(call, 'remote-1');
    expect((await call('DELETE', `/session/${after.id}`)).status).toBe(204);
  });

  it('makes a killed engine’s sessions unreachable, and reconciles them when it is back: still running, ended meanwhile, stopped meanwhile', async () => {
    const [keeps, crashes, stopped] = [await startPlaying(call, 'remote-2'), await startPlaying(call, 'remote-2'), await startPlaying(call, 'remote-2')];
    const crashPid = (await remoteDocker(2).getContainer((await remoteDocker(2).listContainers({ filters: { label: [`session-host.id=${crashes.id}`] } }))[0]!.Id).inspect()).State.Pid;
    process.kill(Number(readFileSync(join(REMOTE_BASE, '2', 'dockerd.pid'), 'utf8')), 'SIGKILL');
    let restartedAt = 0;
    let crashedAt = 0;
    try {
      for (const session of [keeps, crashes, stopped]) await waitForStatus(call, session.id, ['server_unreachable'], 30_000);
      expectError(await call('POST', '/session', { body: { id: newId(), location: 'remote-2', image: 'echo' } }), 420, 'CAPACITY_UNAVAILABLE', '/session');
      // While the engine is away: one game server dies, one session is stopped by its owner.
      crashedAt = Date.now();
      process.kill(crashPid, 'SIGKILL');
      expect((await call('DELETE', `/session/${stopped.id}`)).status).toBe(204);
      expect(await waitForStatus(call, stopped.id, ['dead'], 5000)).toMatchObject({ end_reason: 'stopped' });
    } finally {
      restartedAt = Date.now();
      await startRemoteEngines();
    }
    expect((await waitForStatus(call, keeps.id, ['running'], 30_000)).status).toBe('running');
    await play(keeps, 'back');
    // Recorded with its real end (before the engine was back), not the time it was noticed.
    const crashed = await waitForStatus(call, crashes.id, ['dead'], 30_000);
    expect(crashed.end_reason).toBe('crashed');
    expect(crashed.ended).toBeGreaterThanOrEqual(crashedAt - 1000);
    expect(crashed.ended).toBeLessThanOrEqual(restartedAt + 1000);
    // The session stopped meanwhile: its container is stopped once the engine answers.
    await expect.poll(async () => (await remoteDocker(2).listContainers({ filters: { label: [`session-host.id=${stopped.id}`] } })).length, { timeout: 30_000 }).toBe(0);
    expect((await call('DELETE', `/session/${keeps.id}`)).status).toBe(204);
    await waitForStatus(call, keeps.id, ['exited'], 30_000);
  }, 180_000);
});

describe.skipIf(skip)(`a remote node whose host is gone for good${skip ? ` (skipped: ${remoteSkipReason})` : ''}`, () => {
  const frame = useRemoteService(4);
  let call: Call;
  beforeAll(() => void (call = frame.call));

  it('ends its sessions node_lost after the node-lost timeout and frees their capacity', async () => {
    const sessions = [await startPlaying(call, 'remote-3'), await startPlaying(call, 'remote-3')];
    const used = async () => (await call('GET', '/location')).json.locations.find((l: { id: string }) => l.id === 'remote-3');
    expect((await used()).capacity).toMatchObject({ used: 2 });
    await stopRemoteNode(3);
    for (const session of sessions) await waitForStatus(call, session.id, ['server_unreachable', 'dead'], 30_000);
    for (const session of sessions) expect(await waitForStatus(call, session.id, ['dead'], 30_000)).toMatchObject({ end_reason: 'node_lost' });
    expect((await used()).capacity).toMatchObject({ used: 0 });
  }, 120_000);
});
