/**
 * The Docker engine host's firewall (deploy/docker/session-host-firewall.nft) on destinations
 * beyond the host: a session reaches neither the cloud metadata address (169.254.169.254) nor a
 * private network, unless the operator allowed that range; other destinations it reaches.
 *
 * Built in network namespaces of its own, so the shared engines' firewall is untouched: a
 * "host" namespace with the rules loaded and forwarding on, a "session" namespace behind a
 * bridge-named link (`shs-*`, as the Docker runtime names session bridges) and an "outside"
 * namespace holding every destination, each listening on one TCP port.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectProbe } from '../support/docker.js';

const RULES = join(import.meta.dirname, '../../deploy/docker/session-host-firewall.nft');
const PORT = 8081;
const DESTINATIONS = { metadata: '169.254.169.254', azureHost: '168.63.129.16', privateNet: '192.168.77.1', cgnat: '100.64.9.1', elsewhere: '198.51.100.7' };

const canRun = process.getuid?.() === 0 && commandWorks('nft', ['--version']) && commandWorks('ip', ['-V']);

function commandWorks(file: string, args: string[]): boolean {
  try {
    execFileSync(file, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!canRun)(`the Docker host firewall on destinations beyond the host${canRun ? '' : ' (skipped: needs root, nft and ip)'}`, () => {
  const tag = randomBytes(3).toString('hex');
  const ns = { host: `shfw-h-${tag}`, session: `shfw-s-${tag}`, outside: `shfw-o-${tag}` };
  const run = (netns: string, ...command: string[]) => execFileSync('ip', ['netns', 'exec', netns, ...command], { encoding: 'utf8' });
  let listener: ChildProcess | undefined;

  beforeAll(async () => {
    for (const name of Object.values(ns)) execFileSync('ip', ['netns', 'add', name]);
    const link = (from: string, to: string, fromName: string) =>
      execFileSync('ip', ['link', 'add', fromName, 'netns', from, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', to]);
    // The session's side of the host is named as a session bridge is: the rules match `shs-*`.
    link(ns.host, ns.session, `shs-${tag}`);
    link(ns.host, ns.outside, `out-${tag}`);
    const script = [
      [ns.host, `ip link set lo up; ip link set shs-${tag} up; ip link set out-${tag} up;
        ip addr add 10.250.0.1/30 dev shs-${tag}; ip addr add 203.0.113.1/24 dev out-${tag};
        ${Object.values(DESTINATIONS).map((d) => `ip route add ${d}/32 via 203.0.113.2;`).join(' ')}
        sysctl -qw net.ipv4.ip_forward=1; nft -f ${RULES}`],
      [ns.session, 'ip link set lo up; ip link set eth0 up; ip addr add 10.250.0.2/30 dev eth0; ip route add default via 10.250.0.1'],
      [ns.outside, `ip link set lo up; ip link set eth0 up; ip addr add 203.0.113.2/24 dev eth0; ip route add default via 203.0.113.1;
        ${Object.values(DESTINATIONS).map((d) => `ip addr add ${d}/32 dev lo;`).join(' ')}`],
    ] as const;
    for (const [netns, commands] of script) run(netns, 'sh', '-ec', commands);
    listener = spawn('ip', ['netns', 'exec', ns.outside, process.execPath, '-e',
      `require('net').createServer((s)=>s.on('error',()=>{}).end('hi')).listen(${PORT},'0.0.0.0',()=>console.log('listening'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      listener!.stdout!.once('data', () => resolve());
      listener!.once('exit', (code) => reject(new Error(`the listener exited (${code})`)));
    });
  });

  afterAll(() => {
    listener?.kill();
    for (const name of Object.values(ns)) {
      try {
        execFileSync('ip', ['netns', 'del', name]);
      } catch {
        // Not created.
      }
    }
  });

  const probe = (address: string) => run(ns.session, process.execPath, '-e', connectProbe(address, PORT)).trim();

  it('lets a session reach a destination outside the blocked ranges (the path works)', () => {
    expect(probe(DESTINATIONS.elsewhere)).toBe('connected');
  });

  // The firewall answers "administratively prohibited": the connect fails at once, unreachable.
  const REFUSED = 'EHOSTUNREACH';

  it('refuses the cloud metadata address and private networks', () => {
    expect(probe(DESTINATIONS.metadata)).toBe(REFUSED);
    expect(probe(DESTINATIONS.azureHost)).toBe(REFUSED);
    expect(probe(DESTINATIONS.privateNet)).toBe(REFUSED);
    expect(probe(DESTINATIONS.cgnat)).toBe(REFUSED);
  });

  it('lets the operator allow a private range, never the metadata address', () => {
    run(ns.host, 'nft', 'add', 'element', 'inet', 'session_host_docker', 'allowed_v4', '{ 192.168.77.0/24, 169.254.0.0/16 }');
    expect(probe(DESTINATIONS.privateNet)).toBe('connected');
    expect(probe(DESTINATIONS.cgnat)).toBe(REFUSED);
    expect(probe(DESTINATIONS.metadata)).toBe(REFUSED);
  });

  // Last: the session's bridge is then full for 30 s (UDP entries' lifetime).
  it('bounds the connections one session may open a second and have open (the host conntrack table is shared)', () => {
    const entries = () => Number(run(ns.host, 'cat', '/proc/sys/net/netfilter/nf_conntrack_count').trim());
    /** 5,000 datagrams from the session, each a connection of its own (one destination port each). */
    const spray = (firstPort: number) =>
      run(ns.session, process.execPath, '-e', `
        const socket = require('node:dgram').createSocket('udp4');
        let left = 5000;
        socket.bind(() => { for (let i = 0; i < 5000; i++) socket.send('x', ${firstPort} + i, '${DESTINATIONS.elsewhere}', () => { if (--left === 0) { console.log('sprayed'); socket.close(); } }); });
      `).trim();
    const before = entries();
    expect(spray(20_000)).toBe('sprayed');
    // The burst (500) and the rate over the spray's fraction of a second: without it, 5,000.
    const burst = entries() - before;
    expect(burst).toBeGreaterThan(400);
    expect(burst).toBeLessThan(1000);
    // The rate raised (the rules loaded again: new lists), the count of open ones is what stops it.
    const raised = readFileSync(RULES, 'utf8').replace('limit rate over 100/second burst 500 packets', 'limit rate over 1000000/second burst 1000000 packets');
    execFileSync('ip', ['netns', 'exec', ns.host, 'nft', '-f', '-'], { input: raised });
    const counted = entries();
    expect(spray(30_000)).toBe('sprayed');
    expect(entries() - counted).toBeGreaterThan(4000);
    expect(entries() - counted).toBeLessThanOrEqual(4096 + 16);
  });
});
