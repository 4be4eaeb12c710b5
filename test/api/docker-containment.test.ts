/**
 * What a session's container cannot do, tried from inside it on the real test engines (see
 * test/support/docker.ts): reach another session's container, reach the host, run as root.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CMD_ONLY_IMAGE, connectProbe, containerOf, DEFAULT_LIMITS, docker, dockerFleet, engines, ensureCmdOnlyImage, ensureVolumeImage, LOG_MB, nodeIn, skipReason, useDockerService, VOLUME_IMAGE } from '../support/docker.js';
import { startService } from '../support/service.js';
import { hostPort, runtimeDir, tcpExchange, waitForStatus } from '../support/sessions.js';

const UNDECLARED_PORT = 9999;
const READS = 30;
/**
 * What 30 concurrent reads may add to this process's RSS (service and clients share it). Streamed:
 * +12 MB on Node 20 and +115 to +164 MB on Node 24 (GC lag on both ends of each stream); buffered
 * whole: +309 MB and more. RSS is a noisy measure, so the bound sits between the two.
 */
const RSS_BOUND_MB = 240;

describe.skipIf(engines.length < 2)(`docker containment${engines.length < 2 ? ` (skipped: ${skipReason})` : ''}`, () => {
  const service = useDockerService(
    'dc-',
    () =>
      dockerFleet((fleet) => {
        const { ports } = fleet.images.find((i) => i.name === 'echo')!.tags.latest!;
        fleet.images.push({ name: 'volumes', defaultTag: 'latest', public: true, tags: { latest: { ports, docker: { image: VOLUME_IMAGE, user: '1000:1000' } } } });
        fleet.images.push({ name: 'broken', defaultTag: 'latest', public: true, tags: { latest: { ports, command: ['/no/such/program'], docker: { image: CMD_ONLY_IMAGE, user: '1000:1000' } } } });
      }),
    async () => {
      await ensureCmdOnlyImage();
      await ensureVolumeImage();
    },
  );

  /** A session on engine 1, once running. */
  async function startSession(image: string, args?: string[]) {
    const id = await service.start(image, args ? { args } : {});
    await waitForStatus(service.call, id, ['running'], 30_000);
    return id;
  }

  /** The container's address on its network, that network's gateway (the host's side) and its bridge. */
  async function addressOf(id: string) {
    const { info } = await containerOf(id);
    const [bridge, network] = Object.entries(info.NetworkSettings.Networks)[0]!;
    return { ip: network.IPAddress, gateway: network.Gateway, bridge };
  }

  it("cannot connect to another session's container, on a declared port or an undeclared one", async () => {
    const [attacker, victim] = [await startSession('echo'), await startSession('echo')];
    const target = await addressOf(victim);
    // This host does not forward (ip_forward=0), which alone would stop the attempt; a production
    // engine host does. Forwarding is turned on for the two session bridges only (they go with
    // their sessions), so what stops the attacker here is the firewall's rule between bridges.
    for (const { bridge } of [await addressOf(attacker), target]) writeFileSync(`/proc/sys/net/ipv4/conf/${bridge}/forwarding`, '1');
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

  it('runs game servers as an unprivileged user (the tag’s, else nobody) with the fleet’s default limits (1,024 open files a process), /work nosuid,nodev and Docker’s seccomp profile', async () => {
    const [own, nobody] = [await startSession('echo'), await startSession('nobody')];
    expect(await nodeIn(own, 'console.log(process.getuid())')).toBe('1000');
    expect(await nodeIn(nobody, 'console.log(process.getuid(), process.getgid())')).toBe('65534 65534');
    const { info } = await containerOf(nobody);
    expect(info.HostConfig).toMatchObject({
      Memory: DEFAULT_LIMITS.memoryMb * 1024 * 1024,
      NanoCpus: DEFAULT_LIMITS.cpus * 1e9,
      PidsLimit: DEFAULT_LIMITS.pids,
      // Per process, soft and hard (without it: dockerd's own limit, 20,000 on the test engines).
      // And no core dumps, soft or hard (the engine's default hard limit is unlimited: a game server raised its own).
      Ulimits: [{ Name: 'nofile', Soft: 1024, Hard: 1024 }, { Name: 'core', Soft: 0, Hard: 0 }],
    });
    expect(await nodeIn(nobody, "console.log(require('fs').readFileSync('/proc/self/limits','utf8').match(/^Max open files\\s+(\\d+)\\s+(\\d+)/m).slice(1).join(' '))")).toBe('1024 1024');
    expect(await nodeIn(nobody, "console.log(require('fs').readFileSync('/proc/self/limits','utf8').match(/^Max core file size\\s+(\\S+)\\s+(\\S+)/m).slice(1).join(' '))")).toBe('0 0');
    const mount = await nodeIn(nobody, "console.log(require('fs').readFileSync('/proc/self/mountinfo','utf8').split('\\n').find((l)=>l.split(' ')[4]==='/work'))");
    expect(mount.split(' ')[5]!.split(',')).toEqual(expect.arrayContaining(['nosuid', 'nodev']));
    // Docker's default seccomp profile, never `seccomp=unconfined`: the game server (pid 1) runs under a filter (mode 2).
    expect(info.HostConfig.SecurityOpt ?? []).not.toContainEqual(expect.stringMatching(/seccomp/));
    expect(await nodeIn(nobody, "console.log(require('fs').readFileSync('/proc/1/status','utf8').match(/^Seccomp:\\s+(\\d)/m)[1])")).toBe('2');
  });

  it("never lets the request's args replace an image's program: they follow its CMD when it has no ENTRYPOINT", async () => {
    const id = await startSession('cmdonly', ['--map', 'dust']);
    const session = (await service.call('GET', `/session/${id}`)).json;
    expect(await tcpExchange(session.host, hostPort(session, 'tcp'), 'hi')).toBe(`echo ${id} hi`);
    const { info } = await containerOf(id);
    expect(info.Config.Cmd).toEqual(['/usr/local/bin/node', '/app/echo-server.mjs', '--map', 'dust']);
  });

  it('keeps /work within its size and the artifact copy within its cap: no sparse or large file reaches the host in full, no setuid bit, no owner', async () => {
    const id = await startSession('echo');
    const written = await nodeIn(
      id,
      `const fs=require('fs');fs.writeFileSync('/work/0-tool','#!/bin/sh\\n');fs.chmodSync('/work/0-tool',0o6777);` +
        `fs.closeSync(fs.openSync('/work/sparse','w'));fs.truncateSync('/work/sparse',2*1024**3);` +
        `const fd=fs.openSync('/work/big','w');const mb=Buffer.alloc(1024*1024,7);let n=0,why='done';` +
        `try{for(;n<300;n++)fs.writeSync(fd,mb)}catch(e){why=e.code}console.log(n,why,fs.statSync('/work/sparse').size)`,
    );
    const [megabytes, why, sparseSize] = written.split(' ');
    // The 300 MB file stops at the filesystem's size; the sparse file is allowed (it takes no space).
    expect(why).toBe('ENOSPC');
    expect(Number(megabytes)).toBeLessThan(DEFAULT_LIMITS.workMb);
    expect(Number(sparseSize)).toBe(2 * 1024 ** 3);

    expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
    await waitForStatus(service.call, id, ['exited', 'dead'], 30_000);
    const sessionDir = await runtimeDir(service.running, id, { under: 'docker/sessions' });
    const files = readdirSync(join(sessionDir, 'artifacts'), { recursive: true, encoding: 'utf8' }).map((name) => ({
      name,
      stat: statSync(join(sessionDir, 'artifacts', name)),
    }));
    const cap = DEFAULT_LIMITS.artifactsMb * 1024 * 1024;
    expect(files.reduce((sum, f) => sum + f.stat.size, 0)).toBeLessThanOrEqual(cap);
    expect(files.reduce((sum, f) => sum + f.stat.blocks * 512, 0)).toBeLessThanOrEqual(cap);
    expect(files.map((f) => f.name)).not.toContain('sparse');
    // What was copied: the service's, with masked modes (no setuid/setgid, no write for others).
    const tool = files.find((f) => f.name === '0-tool')!.stat;
    expect(tool.mode & 0o7022).toBe(0);
    expect(tool.uid).toBe(process.getuid!());
    // The working directory's own filesystem is gone once copied out.
    expect(existsSync(join(sessionDir, 'work.img'))).toBe(false);
    expect(JSON.parse(readFileSync(join(sessionDir, 'end.json'), 'utf8')).artifacts.truncated).toMatch(/cap/);
  });

  it("gives an image's own VOLUMEs no volume on the engine host's disk: a tmpfs in their place, bounded like /tmp", async () => {
    const id = await startSession('volumes');
    const { engine, info } = await containerOf(id);
    // Without it, the engine makes /data an anonymous volume under its data root: writable past
    // the read-only root, with no size limit (written 200 MiB by hand, and more was possible).
    expect(info.Mounts.filter((mount) => mount.Type === 'volume')).toEqual([]);
    const volumes = (await docker(engine).listVolumes()).Volumes ?? [];
    expect(volumes.filter((volume) => info.Mounts.some((mount) => mount.Name === volume.Name))).toEqual([]);
    // The game server can still write there, in memory; the image's working directory VOLUME is /work's own filesystem.
    const script =
      "const fs=require('fs');fs.writeFileSync('/data/save',Buffer.alloc(1024*1024,1));" +
      "const mounts=fs.readFileSync('/proc/self/mountinfo','utf8').split('\\n').map((l)=>l.split(' '));" +
      "const at=(p)=>{const l=mounts.find((m)=>m[4]===p);return l[l.indexOf('-')+1]};" +
      "console.log(fs.statSync('/data/save').size,at('/data'),at('/work'))";
    expect(await nodeIn(id, script)).toBe(`${1024 * 1024} tmpfs ext4`);
  });

  it('logs why a start failed on the engine (the session only says start_failed)', async () => {
    const warned = vi.spyOn(console, 'warn');
    try {
      const id = await service.start('broken');
      await waitForStatus(service.call, id, ['dead'], 20_000);
      expect((await service.call('GET', `/session/${id}`)).json.end_reason).toBe('start_failed');
      // The engine's own reason: the tag's program is not in the image (which has no ENTRYPOINT).
      expect(warned.mock.calls.map((call) => String(call[0]))).toContainEqual(expect.stringMatching(/not started on node dock-1b: .*\/no\/such\/program/));
    } finally {
      warned.mockRestore();
    }
  });

  it(`streams logs: ${READS} concurrent reads of a ${LOG_MB} MB log keep the service within ${RSS_BOUND_MB} MB more memory`, async () => {
    const id = await service.start('chatty');
    await waitForStatus(service.call, id, ['exited', 'dead'], 60_000);
    const read = async () => {
      const response = await fetch(`${service.running.url}/logs?id=${id}`, { headers: { Authorization: `Bearer ${service.running.token}` } });
      let bytes = 0;
      for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
      return bytes;
    };
    const size = await read();
    expect(size).toBeGreaterThan(20 * 1024 * 1024);
    // The service runs in this process: its RSS, sampled while the reads run.
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const sizes = await Promise.all(Array.from({ length: READS }, read));
      expect(sizes).toEqual(Array(READS).fill(size));
    } finally {
      clearInterval(sampler);
    }
    console.log(`${READS} reads of ${(size / 1048576).toFixed(1)} MB: RSS ${(before / 1048576).toFixed(0)} -> peak ${(peak / 1048576).toFixed(0)} MB`);
    expect((peak - before) / 1048576).toBeLessThan(RSS_BOUND_MB);
  }, 120_000);
});

describe.skipIf(engines.length < 2)('docker runtime: the API beyond loopback', () => {
  it('warns at start when the API listens beyond loopback (here: the test bridge address of engine 1)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const service = await startService({ host: '10.213.1.1' }, { fleet: dockerFleet() });
    try {
      expect(warn.mock.calls.flat().join('\n')).toMatch(/HOST=10\.213\.1\.1: the API listens beyond loopback.*session-host-firewall\.nft/);
    } finally {
      warn.mockRestore();
      await service.close();
    }
  });
});
