/**
 * The Docker runtime against two real engines (two nodes), over real HTTP. Needs
 * SESSION_HOST_DOCKER_ENGINES (two engine addresses, comma-separated) as printed by
 * test/docker/start-engines.sh, which also imports the test image; .ci/run does both.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { containersOf, docker, dockerFleet, ENGINE_BASE, engines, IMAGE, removeLeftovers, skipReason, startEngines } from '../support/docker.js';
import { caller, expectError } from '../support/http.js';
import { useRestartableService } from '../support/process.js';
import { startService, writeFleet, type RunningService } from '../support/service.js';
import { hostPort, tcpExchange, udpExchange, waitForStatus } from '../support/sessions.js';

if (engines.length < 2) console.warn(`docker runtime tests skipped: ${skipReason}`);

describe.skipIf(engines.length < 2)(`docker runtime on two engines${engines.length < 2 ? ` (skipped: ${skipReason})` : ''}`, () => {
  const contract = contractFetch();
  let running: RunningService;
  let call: ReturnType<typeof caller>;
  const newId = () => `dk-${Math.random().toString(36).slice(2, 10)}`;

  beforeAll(async () => {
    running = await startService({}, { fleet: dockerFleet() });
    call = caller(running.url, running.token, contract);
  });

  afterAll(async () => {
    await running?.close();
    expect(contract.violations).toEqual([]);
  });

  it('runs an echo session as a container: UDP and TCP through published ports, logs, stop, exit code, artifacts', async () => {
    const id = newId();
    const started = await call('POST', '/session', { body: { id, location: 'dock', image: 'echo', labels: { mode: 'ranked' }, env: { SECRET_SAUCE: 'x' } } });
    expect(started.status).toBe(201);
    const session = await waitForStatus(call, id, ['running'], 30_000);
    expect(await udpExchange(session.host, hostPort(session, 'udp'), 'ping')).toBe(`echo ${id} ping`);
    expect(await tcpExchange(session.host, hostPort(session, 'tcp'), 'hello')).toBe(`echo ${id} hello`);

    // The container: labelled, unprivileged, limited.
    const [info] = await containersOf(id);
    expect(info!.Labels).toMatchObject({ 'session-host.id': id, 'session-host.location': 'dock' });
    const engine = engines[session.host && info!.Labels['session-host.node'] === 'dock-1' ? 0 : 1]!;
    const inspect = await docker(engine).getContainer(info!.Id).inspect();
    expect(inspect.HostConfig).toMatchObject({ Privileged: false, CapDrop: ['ALL'], ReadonlyRootfs: true, Memory: 64 * 1024 * 1024, PidsLimit: 64 });
    expect(inspect.HostConfig.SecurityOpt).toContain('no-new-privileges:true');
    expect(inspect.Config.Env).toEqual(expect.arrayContaining([`SESSION_ID=${id}`, 'PORT_GAME=7777', 'SECRET_SAUCE=x']));

    const logs = await call('GET', `/logs?id=${id}`);
    expect(logs.text).toContain(`echo server for session ${id}`);
    expectError(await call('GET', `/artifacts?session=${id}`), 409, 'CONFLICT', '/artifacts');

    expect((await call('DELETE', `/session/${id}`)).status).toBe(204);
    const ended = await waitForStatus(call, id, ['exited', 'dead'], 30_000);
    expect(ended).toMatchObject({ status: 'exited', end_reason: 'stopped', exit_code: 0 });
    expect((await call('GET', `/logs?id=${id}`)).text).toContain('stopping after 1 datagrams, 1 lines');

    const archive = await contract.fetch(`${running.url}/artifacts?session=${id}`, { headers: { Authorization: `Bearer ${running.token}` } });
    expect(archive.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'artifacts-'));
    writeFileSync(join(dir, 'a.tar'), Buffer.from(await archive.arrayBuffer()));
    execFileSync('tar', ['xf', 'a.tar'], { cwd: dir });
    expect(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))).toMatchObject({ session: id, datagrams: 1, lines: 1 });
    rmSync(dir, { recursive: true, force: true });
    expectError(await call('GET', `/artifacts?session=${id}&path=../../etc`), 422, 'INVALID_REQUEST', '/artifacts');
  });

  it('follows the logs until the container ends', async () => {
    const id = newId();
    expect((await call('POST', '/session', { body: { id, location: 'dock', image: 'echo', env: { ECHO_CRASH_AFTER_MS: '1500' } } })).status).toBe(201);
    await waitForStatus(call, id, ['running'], 30_000);
    const followed = await call('GET', `/logs?id=${id}&follow=true`);
    expect(followed.text).toContain('crashing on purpose');
    expect(await waitForStatus(call, id, ['dead'])).toMatchObject({ end_reason: 'crashed', exit_code: 3 });
  });

  it('enforces the memory limit: a container past it is OOM-killed, dead with exit code 137', async () => {
    const id = newId();
    expect((await call('POST', '/session', { body: { id, location: 'dock', image: 'echo', env: { ECHO_ALLOCATE_MB: '300' } } })).status).toBe(201);
    const ended = await waitForStatus(call, id, ['dead', 'exited'], 30_000);
    expect(ended).toMatchObject({ status: 'dead', end_reason: 'crashed', exit_code: 137 });
    expect((await call('GET', `/logs?id=${id}`)).text).toContain('OOMKilled');
  });

  it('restarts a crashing container through the engine restart policy', async () => {
    const id = newId();
    expect((await call('POST', '/session', { body: { id, location: 'dock', image: 'echo', restart: true, env: { ECHO_CRASH_AFTER_MS: '1000' } } })).status).toBe(201);
    await waitForStatus(call, id, ['running'], 30_000);
    await waitForStatus(call, id, ['restarting'], 10_000);
    const back = await waitForStatus(call, id, ['running'], 30_000);
    expect(await udpExchange(back.host, hostPort(back, 'udp'), 'again')).toBe(`echo ${id} again`);
    expect((await call('DELETE', `/session/${id}`)).status).toBe(204);
    expect((await waitForStatus(call, id, ['exited', 'dead'], 30_000)).status).toBe('exited');
  });

  it('answers 404 for an image its nodes do not hold, naming it', async () => {
    const result = await call('POST', '/session', { body: { id: newId(), location: 'dock', image: 'ghost' } });
    expectError(result, 404, 'RESOURCE_NOT_FOUND', '/session');
    expect(result.json.details).toContain('session-host-not-imported:1');
  });

  it('runs a tag registered by a registry push once a node holds its image, only on that node', async () => {
    const tag = `v${Math.random().toString(36).slice(2, 8)}`;
    const push = { push_data: { tag, pusher: 'ci' }, repository: { repo_name: 'studio/echo', namespace: 'studio' } };
    expect((await call('POST', '/webhook/repohost', { body: push })).status).toBe(202);
    const missing = await call('POST', '/session', { body: { id: newId(), location: 'dock', image: 'echo', version: tag } });
    expectError(missing, 404, 'RESOURCE_NOT_FOUND', '/session');
    expect(missing.json.details).toContain(`session-host-echo:${tag}`);

    const repo = IMAGE.slice(0, IMAGE.lastIndexOf(':'));
    await docker(engines[0]!).getImage(IMAGE).tag({ repo, tag });
    try {
      const id = newId();
      expect((await call('POST', '/session', { body: { id, location: 'dock', image: 'echo', version: tag } })).status).toBe(201);
      const session = await waitForStatus(call, id, ['running'], 30_000);
      expect(session.tag).toBe(tag);
      const [container] = await docker(engines[0]!).listContainers({ filters: { label: [`session-host.id=${id}`] } });
      expect(container?.Image).toBe(`${repo}:${tag}`);
      expect((await call('DELETE', `/session/${id}`)).status).toBe(204);
      await waitForStatus(call, id, ['exited'], 30_000);
    } finally {
      await docker(engines[0]!).getImage(`${repo}:${tag}`).remove().catch(() => {});
    }
  });

  it('marks sessions of a stopped engine server_unreachable, places new starts elsewhere, and reconciles when it returns', async () => {
    const onTwo = newId();
    expect((await call('POST', '/session', { body: { id: onTwo, location: 'dock-only-2', image: 'echo' } })).status).toBe(201);
    const session = await waitForStatus(call, onTwo, ['running'], 30_000);

    const pid = Number(readFileSync(join(ENGINE_BASE, '2', 'dockerd.pid'), 'utf8'));
    process.kill(pid, 'SIGTERM');
    try {
      await waitForStatus(call, onTwo, ['server_unreachable'], 30_000);
      // New starts: to the other node, or 420 where there is none.
      const elsewhere = newId();
      const placed = await call('POST', '/session', { body: { id: elsewhere, location: 'dock', image: 'echo' } });
      expect(placed.status).toBe(201);
      const [placedOn] = await docker(engines[0]!).listContainers({ all: true, filters: { label: [`session-host.id=${elsewhere}`] } });
      expect(placedOn?.Labels['session-host.node']).toBe('dock-1');
      await waitForStatus(call, elsewhere, ['running'], 30_000);
      expect((await call('DELETE', `/session/${elsewhere}`)).status).toBe(204);
      const none = await call('POST', '/session', { body: { id: newId(), location: 'dock-only-2', image: 'echo' } });
      expectError(none, 420, 'CAPACITY_UNAVAILABLE', '/session');
      const locations = (await call('GET', '/location')).json.locations;
      expect(locations.find((l: { id: string }) => l.id === 'dock-only-2').status).toBe('locked');
    } finally {
      await startEngines();
    }
    // live-restore kept the container running; it is reconciled back to running.
    const back = await waitForStatus(call, onTwo, ['running'], 30_000);
    expect(await udpExchange(back.host, hostPort(session, 'udp'), 'back?')).toBe(`echo ${onTwo} back?`);
    expect((await call('DELETE', `/session/${onTwo}`)).status).toBe(204);
    expect(await waitForStatus(call, onTwo, ['exited', 'dead'], 30_000)).toMatchObject({ status: 'exited', exit_code: 0 });
  });
});

describe.skipIf(engines.length < 2)('docker runtime: a kill -9 of the service', () => {
  const { dataDir, start } = useRestartableService();

  it('re-adopts every running container after a restart, and each stops normally', async () => {
    writeFleet(dataDir, dockerFleet());
    const first = await start();
    const ids = ['dk-keep-1', 'dk-keep-2', 'dk-keep-3'].map((id) => `${id}-${Math.random().toString(36).slice(2, 6)}`);
    for (const id of ids) expect((await first.call('POST', '/session', { body: { id, location: 'dock', image: 'echo' } })).status).toBe(201);
    const sessions = await Promise.all(ids.map((id) => waitForStatus(first.call, id, ['running'], 30_000)));
    await first.kill('SIGKILL');

    const second = await start();
    for (const session of sessions) {
      expect((await second.call('GET', `/session/${session.id}`)).json.status).toBe('running');
      expect(await udpExchange(session.host, hostPort(session, 'udp'), 'still there?')).toBe(`echo ${session.id} still there?`);
    }
    for (const id of ids) {
      expect((await second.call('DELETE', `/session/${id}`)).status).toBe(204);
      expect(await waitForStatus(second.call, id, ['exited', 'dead'], 30_000)).toMatchObject({ status: 'exited', end_reason: 'stopped', exit_code: 0 });
    }
    await second.kill('SIGTERM');
  });
});

// Ended sessions' containers are kept for the retention period; tests leave none behind.
afterAll(() => removeLeftovers('dk-'));
