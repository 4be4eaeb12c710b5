/**
 * Warm pools on the Docker runtime, on a real engine of this machine (skipped without
 * SESSION_HOST_DOCKER_ENGINES): the pool's containers start ahead of need, their game servers
 * ready and waiting on the SDK socket the service serves them; a start takes one, answers `201
 * running` on the warm container's ports, and by then the game server has its session through the
 * SDK (its long-poll answered); a start that asks for restarts gets the engine's restart policy on
 * the claimed container; the pool refills. A service restarted over the same data directory
 * adopts the warm containers and hands them sessions as well.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WarmServer } from '../../server/domain/ports/warm-servers.js';
import { contractFetch } from '../support/contract.js';
import { docker, dockerFleet, engines, SDK_SOCKET_IN_CONTAINER, sdkAllocationProbe, skipReason } from '../support/docker.js';
import { caller } from '../support/http.js';
import { startService, type RunningService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

const LOCATION = 'dock-only-1';
const fleet = () => dockerFleet((f) => (f.pools = [{ location: LOCATION, image: 'echo', tag: 'latest', warm: 2 }]));

describe.skipIf(engines.length < 2)(`warm pools on docker${engines.length < 2 ? ` (skipped: ${skipReason})` : ''}`, { timeout: 120_000 }, () => {
  const contract = contractFetch();
  let running: RunningService;
  let call: ReturnType<typeof caller>;
  /** Every container key the service has had (warm or claimed): removed at the end, as their containers outlive the service. */
  const keys = new Set<string>();

  const warm = async (status?: WarmServer['status']) => {
    const all = (await running.service.store.warmServers.all()).filter((server) => server.location === LOCATION);
    for (const server of all) keys.add(server.key);
    return all.filter((server) => status === undefined || server.status === status);
  };
  const filled = () => vi.waitFor(async () => expect(await warm('ready')).toHaveLength(2), { timeout: 60_000, interval: 100 });
  const keyOf = async (id: string) => (await running.service.store.sessions.live()).find((session) => session.id === id)!.key;

  /** The container of a session key (a claimed warm container keeps the labels of its launch: no id, no account). */
  async function containerByKey(key: string) {
    const api = docker(engines[0]!);
    const [found] = await api.listContainers({ all: true, filters: { label: [`session-host.session=${key}`] } });
    if (!found) throw new Error(`no container for ${key}`);
    return api.getContainer(found.Id).inspect();
  }
  const nodeInKey = async (key: string, script: string) => {
    const info = await containerByKey(key);
    const { stdout } = await promisify(execFile)('docker', ['-H', engines[0]!, 'exec', info.Id, '/usr/local/bin/node', '-e', script], { timeout: 20_000 });
    return stdout.trim();
  };
  const logs = async (id: string) => (await call('GET', `/logs?id=${id}`)).text;

  beforeAll(async () => {
    // One instance: its own SQLite store in every pass (a shared store means several: no warm pools on Docker).
    running = await startService({ databaseUrl: undefined }, { fleet: fleet() });
    call = caller(running.url, running.token, contract);
  });

  afterAll(async () => {
    await warm().catch(() => {});
    await running?.close();
    const api = docker(engines[0]!);
    for (const key of keys) {
      for (const c of await api.listContainers({ all: true, filters: { label: [`session-host.session=${key}`] } })) await api.getContainer(c.Id).remove({ force: true, v: true }).catch(() => {});
      for (const n of await api.listNetworks({ filters: { label: [`session-host.session=${key}`] } })) await api.getNetwork(n.Id).remove().catch(() => {});
    }
    expect(contract.violations).toEqual([]);
  });

  it('starts warm containers whose game servers wait for a session through the SDK', async () => {
    await filled();
    for (const server of await warm('ready')) {
      expect(JSON.parse(await nodeInKey(server.key, sdkAllocationProbe(SDK_SOCKET_IN_CONTAINER)))).toMatchObject({ state: 'warm' });
      expect((await containerByKey(server.key)).HostConfig.RestartPolicy?.Name).toBe('no');
    }
  });

  it('answers a start 201 running on a warm container that already has its session; restarts as asked; the pool refills', async () => {
    await filled();
    const pooled = new Map((await warm('ready')).map((server) => [server.key, server]));
    const started = await call('POST', '/session', { body: { id: 'dwarm-1', location: LOCATION, image: 'echo', labels: { mode: 'ranked' }, restart: true } });
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({ id: 'dwarm-1', status: 'running', labels: { mode: 'ranked' } });
    const key = await keyOf('dwarm-1');
    const server = pooled.get(key);
    expect(server).toBeDefined();
    expect(started.json.ports.map((p: { host: number }) => p.host)).toEqual(server!.ports.map((p) => p.host));

    // Its game server has the session: the SDK answers with it, and its long-poll was answered.
    expect(JSON.parse(await nodeInKey(key, sdkAllocationProbe(SDK_SOCKET_IN_CONTAINER)))).toMatchObject({
      state: 'allocated',
      session: { id: 'dwarm-1', labels: { mode: 'ranked' }, players: [] },
    });
    await vi.waitFor(async () => expect(await logs('dwarm-1')).toContain('allocated to session dwarm-1 (labels {"mode":"ranked"})'), { timeout: 10_000, interval: 100 });
    // Launched with no restart policy; the start asked for one.
    expect((await containerByKey(key)).HostConfig.RestartPolicy?.Name).toBe('on-failure');

    await filled();
    expect((await warm()).map((s) => s.key)).not.toContain(key);
    expect((await call('DELETE', '/session/dwarm-1')).status).toBe(204);
    expect(await waitForStatus(call, 'dwarm-1', ['exited', 'dead'], 30_000)).toMatchObject({ status: 'exited', end_reason: 'stopped' });
  });

  it('adopts its warm containers after a restart and hands them sessions', async () => {
    await filled();
    const before = new Set((await warm('ready')).map((server) => server.key));
    const dataDir = running.dataDir;
    await running.close({ keepData: true });
    running = await startService({ dataDir, databaseUrl: undefined }, { fleet: fleet() });
    call = caller(running.url, running.token, contract);
    await filled();
    // The same containers, not new ones.
    expect(new Set((await warm('ready')).map((server) => server.key))).toEqual(before);
    const started = await call('POST', '/session', { body: { id: 'dwarm-2', location: LOCATION, image: 'echo' } });
    expect(started.json).toMatchObject({ status: 'running' });
    const key = await keyOf('dwarm-2');
    expect(before.has(key)).toBe(true);
    expect(JSON.parse(await nodeInKey(key, sdkAllocationProbe(SDK_SOCKET_IN_CONTAINER)))).toMatchObject({ state: 'allocated', session: { id: 'dwarm-2' } });
    expect((await call('DELETE', '/session/dwarm-2')).status).toBe(204);
    await waitForStatus(call, 'dwarm-2', ['exited', 'dead'], 30_000);
  });
});
