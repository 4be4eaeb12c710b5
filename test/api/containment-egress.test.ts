/**
 * The process runtime's egress firewall (server/runtime/process/egress-firewall.ts), tried by a
 * hostile game server (test/support/attacker.sh, ATTACK=connect): it must not reach a service
 * listening on one of the host's own non-loopback addresses, nor one on a private network, while
 * its own ports keep answering players (on loopback); a private network the operator allows is
 * reachable. The test gives the host a private network behind a veth into a network namespace of
 * its own, and the veth's host side a second address (TEST-NET-2: not a private range, so only
 * the host-address rule refuses it); both go afterwards.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attackerImage } from '../support/attacker.js';
import { testFleet, useService } from '../support/service.js';
import { hostPort, tcpExchange, udpExchange, waitForStatus } from '../support/sessions.js';

const tag = Math.random().toString(16).slice(2, 8);
const random = (n: number) => Math.floor(Math.random() * n);
const HOST_ADDRESS = `198.51.100.${1 + random(250)}`;
const PRIVATE_NET = `10.${200 + random(50)}.${random(256)}.${random(64) * 4}`;
const [a, b, c, d] = PRIVATE_NET.split('.').map(Number) as [number, number, number, number];
const PRIVATE_HOST_SIDE = `${a}.${b}.${c}.${d + 1}`;
const PRIVATE_PEER = `${a}.${b}.${c}.${d + 2}`;
// The private peer in IPv6 too: a unique-local address (a control: IPv6 through pasta works),
// and its IPv4 address embedded as IPv4-compatible and as IPv4-translated.
const ULA_NET = `fd${random(256).toString(16).padStart(2, '0')}:${random(65536).toString(16)}::`;
const EMBEDDED_PEERS = [`::${PRIVATE_PEER}`, `::ffff:0:${PRIVATE_PEER}`];
const VETH = `shcv${tag}`;
const NETNS = `shcn${tag}`;

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });
describe('a hostile game server in the process runtime sandbox, connecting out', () => {
  const closed = useService({}, { fleet: testFleet((fleet) => fleet.images.push(attackerImage())) });
  const FLOWS = 64;
  const allowing = useService({}, { fleet: testFleet((fleet) => {
    fleet.images.push(attackerImage());
    fleet.runtime.allowedNetworks = [`${PRIVATE_NET}/30`, `${ULA_NET}/126`];
    fleet.runtime.outboundFlowsPerSession = FLOWS;
  }) });

  let hostListener: Server;
  let hostConnections = 0;
  let peer: ChildProcess;
  let targets = '';
  let peerPort = 0;

  beforeAll(async () => {
    ip('netns', 'add', NETNS);
    ip('link', 'add', VETH, 'type', 'veth', 'peer', 'name', `${VETH}p`);
    ip('link', 'set', `${VETH}p`, 'netns', NETNS);
    ip('addr', 'add', `${PRIVATE_HOST_SIDE}/30`, 'dev', VETH);
    ip('addr', 'add', `${HOST_ADDRESS}/32`, 'dev', VETH);
    ip('link', 'set', VETH, 'up');
    ip('-n', NETNS, 'addr', 'add', `${PRIVATE_PEER}/30`, 'dev', `${VETH}p`);
    ip('-6', 'addr', 'add', `${ULA_NET}1/126`, 'dev', VETH, 'nodad');
    ip('-n', NETNS, '-6', 'addr', 'add', `${ULA_NET}2/126`, 'dev', `${VETH}p`, 'nodad');
    for (const [hostSide, peerSide] of [[`::${PRIVATE_HOST_SIDE}`, `::${PRIVATE_PEER}`], [`::ffff:0:${PRIVATE_HOST_SIDE}`, `::ffff:0:${PRIVATE_PEER}`]]) {
      ip('-6', 'addr', 'add', `${hostSide}/126`, 'dev', VETH, 'nodad');
      ip('-n', NETNS, '-6', 'addr', 'add', `${peerSide}/126`, 'dev', `${VETH}p`, 'nodad');
    }
    ip('-n', NETNS, 'link', 'set', `${VETH}p`, 'up');
    hostListener = createServer((socket) => {
      hostConnections++;
      socket.end('host-service\n');
    });
    await new Promise<void>((resolve) => hostListener.listen(0, HOST_ADDRESS, resolve));
    // A service on the private network: in the namespace, it says its port once listening.
    peer = spawn('ip', ['netns', 'exec', NETNS, process.execPath, '-e', `
      const server = require('node:net').createServer((s) => s.end('private-service\\n'));
      server.listen(0, '::', () => console.log(server.address().port));
    `]);
    peerPort = await new Promise<number>((resolve) => peer.stdout!.once('data', (data) => resolve(Number(String(data).trim()))));
    const hostAddress = hostListener.address();
    if (!hostAddress || typeof hostAddress === 'string') throw new Error('no listener address');
    targets = `${HOST_ADDRESS}:${hostAddress.port} ${PRIVATE_PEER}:${peerPort}`;
  });

  afterAll(() => {
    hostListener?.close();
    peer?.kill();
    for (const args of [['link', 'del', VETH], ['netns', 'del', NETNS]]) {
      try {
        ip(...args);
      } catch {
        // Not created: the setup failed half-way.
      }
    }
  });

  const attack = async (service: typeof closed, env: Record<string, string> = { ATTACK: 'connect', TARGETS: targets }) => {
    const id = `egress-${tag}-${Math.random().toString(16).slice(2, 8)}`;
    const started = await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'attacker', env } });
    expect(started.status).toBe(201);
    const session = await waitForStatus(service.call, id, ['running']);
    return { session, log: (await service.call('GET', `/logs?id=${id}`)).text };
  };

  it('reaches neither the host on its other addresses nor a private network, and still answers its players', async () => {
    const { session, log } = await attack(closed);
    const [host, privateService] = targets.split(' ');
    expect(log).toContain(`REFUSED ${host}`);
    expect(log).toContain(`REFUSED ${privateService}`);
    expect(log).not.toContain('GOT ');
    expect(hostConnections).toBe(0);
    // Its forwarded ports answer players on loopback (replies to connections made to it pass).
    expect(await udpExchange('127.0.0.1', hostPort(session, 'udp'), 'ping')).toBe(`echo ${session.id} ping`);
    expect(await tcpExchange('127.0.0.1', hostPort(session, 'tcp'), 'hello')).toBe(`echo ${session.id} hello`);
  });

  it('sends no datagram to a multicast group of the host\'s network (its neighbours: mDNS, SSDP)', async () => {
    // A listener of the host in a group, on the interface multicast is routed by: pasta's socket
    // loops its datagrams back to it, as they leave for the network's other members.
    const group = `239.255.${random(256)}.${1 + random(250)}`;
    const heard: string[] = [];
    const listener = createSocket({ type: 'udp4', reuseAddr: true });
    await new Promise<void>((resolve) => listener.bind(0, '0.0.0.0', () => resolve()));
    listener.addMembership(group);
    listener.on('message', (message) => heard.push(String(message)));
    try {
      const { log } = await attack(closed, { ATTACK: 'send', TARGETS: `${group}:${listener.address().port}` });
      expect(log).toMatch(/(SENT|REFUSED) 239\./);
      // A datagram sent before the session ran is heard within milliseconds.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(heard).toEqual([]);
    } finally {
      listener.close();
    }
  });

  /**
   * The host's conntrack entries left by a game spraying `count` datagrams, each to a destination
   * of its own. Each spray takes ports after the last one's: entries live 30 s, and two random
   * ranges overlapped often enough to count another test's entries as this one's.
   */
  let nextSprayPort = 20_000 + random(20_000);
  const sprayedEntries = async (service: typeof closed, count = 1_000): Promise<number> => {
    const port = nextSprayPort;
    nextSprayPort += count;
    const { log } = await attack(service, { ATTACK: 'spray', SPRAY_COUNT: String(count), SPRAY_PORT: String(port) });
    expect(log).toContain(`SPRAYED ${count}`);
    return readFileSync('/proc/net/nf_conntrack', 'utf8').split('\n').filter((line) => {
      const match = / dst=203\.0\.113\.\d+ sport=\d+ dport=(\d+) /.exec(line);
      return match !== null && Number(match[1]) >= port && Number(match[1]) < port + count;
    }).length;
  };

  it('opens at most its outbound flows a second (bursts of five seconds\' worth): counting them must not be flooded', async () => {
    const entries = await sprayedEntries(closed, 2_000);
    // The default 100 a second in bursts of 500, over however long pasta takes to send them (a
    // busy machine: seconds): without it, 2,000.
    expect(entries).toBeGreaterThan(400);
    expect(entries).toBeLessThan(1_500);
  });

  it('opens at most its outbound flows at once: the host\'s conntrack table is every connection\'s', async () => {
    const entries = await sprayedEntries(allowing);
    // Without the limit, about as many as the burst lets through (each kept 30 s).
    expect(entries).toBeGreaterThan(0);
    // The kernel's count (nf_conncount) is checked per packet without a lock against entries
    // being confirmed and expiring, so a few over the cap may pass: far from the burst's 500.
    expect(entries).toBeLessThanOrEqual(FLOWS + 8);
  });

  it('reaches a private network the operator allows, never the host itself', async () => {
    const { log } = await attack(allowing);
    const [host, privateService] = targets.split(' ');
    expect(log).toContain(`GOT ${privateService} private-service`);
    expect(log).toContain(`REFUSED ${host}`);
    expect(hostConnections).toBe(0);
  });

  it('reaches no IPv4 address embedded in an IPv6 one (IPv4-compatible, IPv4-translated), allowed or not', async () => {
    const embedded = EMBEDDED_PEERS.map((address) => `${address}:${peerPort}`);
    const { log } = await attack(allowing, { ATTACK: 'connect', TARGETS: [`${ULA_NET}2:${peerPort}`, ...embedded].join(' ') });
    // IPv6 through the sandbox works (the allowed unique-local peer answers) ...
    expect(log).toContain(`GOT ${ULA_NET}2:${peerPort} private-service`);
    // ... and the same peer under its embedded IPv4 address does not: a translator on the path
    // would take ::7f00:1 to loopback.
    for (const target of embedded) expect(log).toContain(`REFUSED ${target}`);
  });
});
