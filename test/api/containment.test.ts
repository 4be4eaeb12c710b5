/**
 * The process runtime's sandbox, tried as an attacker would: a hostile shell-based game server
 * (test/support/attacker.sh, the test-only image `attacker`) attempts each escape the sandbox
 * must stop, and the test checks it was stopped. Each case fails if its protection is removed.
 */
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { attackerImage } from '../support/attacker.js';
import { instanceCgroupGroup } from '../../server/runtime/process/sandboxes.js';
import { testFleet, useService } from '../support/service.js';
import { hostPort, runtimeDir, tcpExchange, udpExchange, waitForStatus } from '../support/sessions.js';

const SECRETS = { ADMIN_PASSWORD: 'leaked-admin-password-0123', BOOTSTRAP_TOKEN: 'gsh_LeakedBootstrapToken00000000000000000' };
const LIMITS = { pids: 48, memoryMb: 128, outputMb: 1, workDirMb: 8, workDirFiles: 64 };
/** The start deadline of the `attacker-slow` image (the same game server): short, so the test is. */
const START_SECONDS = 2;

describe('a hostile game server in the process runtime sandbox', () => {
  let next = 0;
  const newId = () => `c-${process.pid}-${++next}`;
  // As if the operator had started the service with its secrets in the environment.
  const saved = { ...process.env };
  Object.assign(process.env, SECRETS);
  afterAll(() => {
    for (const name of Object.keys(SECRETS)) if (saved[name] === undefined) delete process.env[name];
  });

  const fleet = testFleet((fleet) => {
    fleet.images.push(attackerImage('attacker', LIMITS), attackerImage('attacker-slow', { ...LIMITS, startSeconds: START_SECONDS }));
  });
  const service = useService({}, { fleet });

  const start = async (image: string, env: Record<string, string> = {}, location = 'local-a') => {
    const id = newId();
    const started = await service.call('POST', '/session', { body: { id, location, image, env } });
    expect(started.status).toBe(201);
    return id;
  };
  const run = async (image: string, env: Record<string, string> = {}, location = 'local-a') => {
    const id = await start(image, env, location);
    return waitForStatus(service.call, id, ['running']);
  };
  const output = async (id: string) => (await service.call('GET', `/logs?id=${id}`)).text;
  const sessionDir = (id: string) => runtimeDir(service.running, id);

  it('cannot read the key, the database, another session\'s files or cgroup, or /etc/shadow', async () => {
    const victim = await run('echo');
    const victimFile = join(await sessionDir(victim.id), 'work', 'private.txt');
    writeFileSync(victimFile, 'victim data');
    // Another session's cgroup (world-readable on the host): its memory use, its processes (outside check 9).
    const victimKey = (await service.running.service.store.sessions.live()).find((session) => session.id === victim.id)!.key;
    const victimCgroup = join('/sys/fs/cgroup/memory/session-host', instanceCgroupGroup(service.running.dataDir), victimKey);
    expect(existsSync(join(victimCgroup, 'memory.usage_in_bytes'))).toBe(true);
    const targets = [
      join(service.running.dataDir, 'secret.key'),
      join(service.running.dataDir, 'service.db'),
      victimFile,
      '/etc/shadow',
      join(victimCgroup, 'memory.usage_in_bytes'),
      join(victimCgroup, 'cgroup.procs'),
    ];
    const attacker = await run('attacker', { ATTACK: 'read', TARGETS: targets.join(' ') });
    const log = await output(attacker.id);
    for (const target of targets) expect(log).toContain(`REFUSED ${target}`);
    expect(log).not.toContain('GOT ');
  });

  describe('a root-only unix socket under /run', () => {
    const path = `/run/session-host-test-${process.pid}.sock`;
    let server: Server;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(path, resolve));
      chmodSync(path, 0o600);
    });
    afterAll(() => {
      server.close();
      rmSync(path, { force: true });
    });

    it('cannot be reached', async () => {
      const attacker = await run('attacker', { ATTACK: 'socket', SOCKET: path });
      expect(await output(attacker.id)).toContain(`REFUSED ${path}`);
      expect(connections).toBe(0);
    });
  });

  it('finds no secret in its own environment, nor in its supervisor\'s', async () => {
    const attacker = await run('attacker', { ATTACK: 'environ' });
    const log = await output(attacker.id);
    // It did read its environment (the game server's own: its session's id is in it).
    expect(log).toContain(`SESSION_ID=${attacker.id} `);
    const state = JSON.parse(readFileSync(join(await sessionDir(attacker.id), 'state.json'), 'utf8'));
    const supervisorEnv = readFileSync(`/proc/${state.supervisorPid}/environ`, 'utf8');
    for (const secret of Object.values(SECRETS)) {
      expect(log).not.toContain(secret);
      expect(supervisorEnv).not.toContain(secret);
    }
  });

  it('inherits no descriptor but its stdin, stdout and stderr (pasta\'s sockets in the host\'s network namespace were its)', async () => {
    const attacker = await run('attacker', { ATTACK: 'fds' });
    const fds = (await output(attacker.id)).split('\n').filter((line) => line.startsWith('FD '));
    expect(fds.map((line) => line.split(' ')[1])).toEqual(expect.arrayContaining(['0', '1', '2']));
    // ls's own: the directory it lists.
    expect(fds.filter((line) => Number(line.split(' ')[1]) > 2 && !/ \/proc\/\d+\/fd$/.test(line))).toEqual([]);
  });

  it('cannot make a user namespace of its own (root there, nf_tables and mounts to reach)', async () => {
    const attacker = await run('attacker', { ATTACK: 'userns' });
    const log = await output(attacker.id);
    expect(log).toContain('REFUSED userns\n');
    expect(log).toContain('REFUSED userns+net\n');
    expect(log).not.toContain('GOT userns');
  });

  it('cannot take ports another session holds: that session\'s players keep their own answers', async () => {
    const victim = await run('echo');
    const range = fleet.locations[0]!.nodes[0]!.ports;
    const squatter = await run('attacker', { ATTACK: 'squat', SQUAT_FROM: String(range.from), SQUAT_TO: String(range.from + 20) });
    expect(await output(squatter.id)).toContain('SQUATTING');
    expect(await udpExchange('127.0.0.1', hostPort(victim, 'udp'), 'ping')).toBe(`echo ${victim.id} ping`);
    expect(await tcpExchange('127.0.0.1', hostPort(victim, 'tcp'), 'hello')).toBe(`echo ${victim.id} hello`);
    // A session placed after the squatter took its ports answers for itself too.
    const later = await run('echo');
    expect(await udpExchange('127.0.0.1', hostPort(later, 'udp'), 'ping')).toBe(`echo ${later.id} ping`);
    expect(await tcpExchange('127.0.0.1', hostPort(later, 'tcp'), 'hello')).toBe(`echo ${later.id} hello`);
  });

  describe('a port held by a process outside the service', () => {
    let tcp: Server;
    let udp: Socket;
    const range = () => fleet.locations[1]!.nodes[0]!.ports;
    beforeAll(async () => {
      tcp = createServer((socket) => socket.end('foreign\n'));
      await new Promise<void>((resolve) => tcp.listen(range().from, '127.0.0.1', resolve));
      udp = createSocket('udp4');
      await new Promise<void>((resolve) => udp.bind(range().from, '127.0.0.1', resolve));
    });
    afterAll(() => {
      tcp.close();
      udp.close();
    });

    it('makes placement choose another port', async () => {
      const session = await run('echo', {}, 'local-b');
      expect(session.ports.map((p: { host: number }) => p.host)).not.toContain(range().from);
      expect(await udpExchange('127.0.0.1', hostPort(session, 'udp'), 'ping')).toBe(`echo ${session.id} ping`);
    });
  });

  it('stops a fork bomb at the pids limit', async () => {
    const attacker = await run('attacker', { ATTACK: 'forkbomb', FORKS: '200' });
    const processes = Number(/PROCESSES (\d+)/.exec(await output(attacker.id))?.[1]);
    expect(processes).toBeGreaterThan(0);
    expect(processes).toBeLessThan(LIMITS.pids);
  });

  it('ends a memory hog with exit code 137', async () => {
    const id = await start('attacker', { ECHO_ALLOCATE_MB: String(LIMITS.memoryMb * 3) });
    const ended = await waitForStatus(service.call, id, ['dead', 'exited']);
    expect(ended).toMatchObject({ status: 'dead', exit_code: 137 });
  });

  it('stops a game server whose work directory passes its size limit, with exit code 137', async () => {
    const id = await start('attacker', { ATTACK: 'fill', FILL_MB: String(LIMITS.workDirMb * 2) });
    const ended = await waitForStatus(service.call, id, ['dead', 'exited']);
    expect(ended).toMatchObject({ status: 'dead', exit_code: 137 });
    expect(await output(id)).toContain('the work directory passed its limit');
  });

  it('stops a game server whose work directory passes its file count limit (empty files: inodes, no bytes), with exit code 137', async () => {
    const id = await start('attacker', { ATTACK: 'files', FILES: String(LIMITS.workDirFiles * 10) });
    const ended = await waitForStatus(service.call, id, ['dead', 'exited']);
    expect(ended).toMatchObject({ status: 'dead', exit_code: 137 });
    expect(await output(id)).toContain(`the work directory passed its limit of ${LIMITS.workDirFiles} files and directories`);
  });

  it('counts files it unlinked but keeps open against the work directory\'s limit', async () => {
    const id = await start('attacker', { ATTACK: 'unlinked', FILL_MB: String(LIMITS.workDirMb * 3) });
    const ended = await waitForStatus(service.call, id, ['dead', 'exited']);
    expect(ended).toMatchObject({ status: 'dead', exit_code: 137 });
    expect(await output(id)).toContain('the work directory passed its limit');
  });

  it('counts files under directories nested past PATH_MAX against the work directory\'s limit', async () => {
    const id = await start('attacker', { ATTACK: 'deep', FILL_MB: String(LIMITS.workDirMb * 3) });
    const ended = await waitForStatus(service.call, id, ['dead', 'exited']);
    expect(ended).toMatchObject({ status: 'dead', exit_code: 137 });
    // (Not its log: its directory, uncountable, is the first the retention's disk budget removes.)
  });

  it('cannot write one file larger than its work directory\'s limit', async () => {
    const id = await start('attacker', { ATTACK: 'bigfile', FILL_MB: String(LIMITS.workDirMb * 8) });
    await waitForStatus(service.call, id, ['running', 'dead', 'exited']);
    const written = Number(/BIGFILE (\d+)/.exec(await output(id))?.[1]);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(LIMITS.workDirMb * 1024 * 1024);
  });

  it('caps a log flood, keeping the newest output', async () => {
    const attacker = await run('attacker', { ATTACK: 'flood', FLOOD_MB: '6' });
    const dir = await sessionDir(attacker.id);
    const kept = statSync(join(dir, 'output.log')).size + statSync(join(dir, 'output.log.1')).size;
    expect(kept).toBeLessThanOrEqual(LIMITS.outputMb * 1024 * 1024);
    // Running means its ports are bound; the echo server logs its first line just after (in its
    // listen callback): read until that line has come through the cap too.
    await vi.waitFor(async () => expect(await output(attacker.id)).toMatch(/FLOOD DONE[\s\S]*echo server for session/), { timeout: 10_000, interval: 100 });
  });

  it('ends a game server that never binds at its start deadline, and charges its time', async () => {
    const { token } = await service.running.service.onboard({ name: 'Idle Studio', quotaMinutes: 10, operator: false });
    const id = newId();
    expect((await service.call('POST', '/session', { token, body: { id, location: 'local-a', image: 'attacker-slow', env: { ATTACK: 'idle' } } })).status).toBe(201);
    const ended = await waitForStatus((method, path, options) => service.call(method, path, { ...options, token }), id, ['dead', 'exited']);
    expect(ended).toMatchObject({ status: 'dead', end_reason: 'start_failed', started: null });
    expect(ended.ended - ended.created).toBeGreaterThanOrEqual(START_SECONDS * 1000);
    const account = await service.call('GET', '/account', { token });
    expect(account.json.quota.used * 60).toBeGreaterThanOrEqual(START_SECONDS);
  });
});
