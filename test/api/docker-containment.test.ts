/**
 * What a session's container cannot do, tried from inside it on the real test engines (see
 * test/support/docker.ts): reach another session's container, reach the host, run as root.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../support/contract.js';
import { connectProbe, containerOf, DEFAULT_LIMITS, dockerFleet, engines, ensureCmdOnlyImage, nodeIn, removeLeftovers, skipReason } from '../support/docker.js';
import { caller } from '../support/http.js';
import { startService, type RunningService } from '../support/service.js';
import { hostPort, tcpExchange, waitForStatus } from '../support/sessions.js';

const UNDECLARED_PORT = 9999;

describe.skipIf(engines.length < 2)(`docker containment${engines.length < 2 ? ` (skipped: ${skipReason})` : ''}`, () => {
  const contract = contractFetch();
  let running: RunningService;
  let call: ReturnType<typeof caller>;
  const newId = () => `dc-${Math.random().toString(36).slice(2, 10)}`;
  const ids: string[] = [];

  async function startSession(image: string, args?: string[]) {
    const id = newId();
    ids.push(id);
    expect((await call('POST', '/session', { body: { id, location: 'dock-only-2', image, ...(args ? { args } : {}) } })).status).toBe(201);
    await waitForStatus(call, id, ['running'], 30_000);
    return id;
  }

  /** The container's address on its network, and that network's gateway (the host's side). */
  async function addressOf(id: string) {
    const { info } = await containerOf(id);
    const [network] = Object.values(info.NetworkSettings.Networks);
    return { ip: network!.IPAddress, gateway: network!.Gateway };
  }

  beforeAll(async () => {
    await ensureCmdOnlyImage();
    running = await startService({}, { fleet: dockerFleet() });
    call = caller(running.url, running.token, contract);
  });

  afterAll(async () => {
    for (const id of ids) await call('DELETE', `/session/${id}`).catch(() => {});
    await running?.close();
    await removeLeftovers('dc-');
    expect(contract.violations).toEqual([]);
  });

  it("cannot connect to another session's container, on a declared port or an undeclared one", async () => {
    const [attacker, victim] = [await startSession('echo'), await startSession('echo')];
    const target = await addressOf(victim);
    // The victim also listens on a port it never declared.
    await nodeIn(victim, `require('net').createServer((s)=>s.end('secret')).listen(${UNDECLARED_PORT})`, { detach: true });
    // Both listeners are there: the victim reaches itself on its own address.
    for (const port of [7778, UNDECLARED_PORT]) {
      await expect.poll(() => nodeIn(victim, connectProbe(target.ip, port)), { timeout: 10_000 }).toBe('connected');
    }
    expect(await nodeIn(attacker, connectProbe(target.ip, 7778))).not.toBe('connected');
    expect(await nodeIn(attacker, connectProbe(target.ip, UNDECLARED_PORT))).not.toBe('connected');
    // Each session has a network of its own.
    expect((await addressOf(attacker)).gateway).not.toBe(target.gateway);
  });

  it("cannot reach a service on the host through its network's gateway", async () => {
    const id = await startSession('echo');
    const { gateway } = await addressOf(id);
    // A host service listening on the host's address on the session's bridge.
    const server: Server = createServer((socket) => socket.on('error', () => {}).end('host secret'));
    await new Promise<void>((resolve) => server.listen(0, gateway, resolve));
    const { port } = server.address() as { port: number };
    try {
      expect(await nodeIn(id, connectProbe(gateway, port))).not.toBe('connected');
    } finally {
      server.close();
    }
  });

  it('runs game servers as an unprivileged user (the tag’s, else nobody) with the fleet’s default limits and /work nosuid,nodev', async () => {
    const [own, nobody] = [await startSession('echo'), await startSession('nobody')];
    expect(await nodeIn(own, 'console.log(process.getuid())')).toBe('1000');
    expect(await nodeIn(nobody, 'console.log(process.getuid(), process.getgid())')).toBe('65534 65534');
    const { info } = await containerOf(nobody);
    expect(info.HostConfig).toMatchObject({
      Memory: DEFAULT_LIMITS.memoryMb * 1024 * 1024,
      NanoCpus: DEFAULT_LIMITS.cpus * 1e9,
      PidsLimit: DEFAULT_LIMITS.pids,
    });
    const mount = await nodeIn(nobody, "console.log(require('fs').readFileSync('/proc/self/mountinfo','utf8').split('\\n').find((l)=>l.split(' ')[4]==='/work'))");
    expect(mount.split(' ')[5]!.split(',')).toEqual(expect.arrayContaining(['nosuid', 'nodev']));
  });

  it("never lets the request's args replace an image's program: they follow its CMD when it has no ENTRYPOINT", async () => {
    const id = await startSession('cmdonly', ['--map', 'dust']);
    const session = (await call('GET', `/session/${id}`)).json;
    expect(await tcpExchange(session.host, hostPort(session, 'tcp'), 'hi')).toBe(`echo ${id} hi`);
    const { info } = await containerOf(id);
    expect(info.Config.Cmd).toEqual(['/usr/local/bin/node', '/app/echo-server.mjs', '--map', 'dust']);
  });
});
