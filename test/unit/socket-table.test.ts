/**
 * Which ports a network namespace has bound, as placement (held ports) and the supervisor's
 * readiness read them. Tables the namespace's socket counts say are empty are skipped (reading
 * one walks every TCP connection of the host), so these check that nothing bound is missed
 * through that skipping, on either address family, and that binding a port raises the counts
 * the readiness poll watches. Each runs in a network namespace of its own (`unshare -n`), where
 * nobody else's sockets move the counts.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const TABLE = join(import.meta.dirname, '../../server/runtime/socket-table.mjs');

/** Runs `script` (an ES module body with boundPorts, socketCounts, net and dgram in scope) in a fresh network namespace; returns what it prints as JSON. */
function inOwnNetns(script: string): any {
  const module = `
    import net from 'node:net';
    import dgram from 'node:dgram';
    import { boundPorts, socketCounts } from ${JSON.stringify(TABLE)};
    const listen = (host, port) => new Promise((resolve) => net.createServer().listen(port, host, resolve));
    const bindUdp = (type, host, port) => new Promise((resolve) => dgram.createSocket(type).bind(port, host, resolve));
    const ports = (bound) => ({ tcp: [...bound.tcp].sort(), udp: [...bound.udp].sort() });
    ${script}
    process.exit(0);`;
  return JSON.parse(execFileSync('unshare', ['-n', process.execPath, '--input-type=module', '-e', module], { encoding: 'utf8' }));
}

describe('the socket tables', () => {
  it('show TCP listeners and bound UDP sockets of both address families, and nothing in an empty namespace', () => {
    const seen = inOwnNetns(`
      const empty = ports(boundPorts('/proc/self/net'));
      await listen('127.0.0.1', 7001);
      await listen('::', 7002);
      await bindUdp('udp4', '127.0.0.1', 7003);
      await bindUdp('udp6', '::', 7004);
      console.log(JSON.stringify({ empty, bound: ports(boundPorts('/proc/self/net')), udpOnly: ports(boundPorts('/proc/self/net', ['udp'])) }));`);
    expect(seen.empty).toEqual({ tcp: [], udp: [] });
    expect(seen.bound).toEqual({ tcp: [7001, 7002], udp: [7003, 7004] });
    expect(seen.udpOnly).toEqual({ tcp: [], udp: [7003, 7004] });
  });

  it('count each listener and bound UDP socket, so a poll knows when the tables are worth reading', () => {
    const counts = inOwnNetns(`
      const steps = [socketCounts('/proc/self/net')];
      await bindUdp('udp4', '127.0.0.1', 7003);
      steps.push(socketCounts('/proc/self/net'));
      await listen('127.0.0.1', 7001);
      steps.push(socketCounts('/proc/self/net'));
      await listen('::', 7002);
      steps.push(socketCounts('/proc/self/net'));
      console.log(JSON.stringify(steps));`);
    expect(counts).toEqual([
      { tcp: 0, udp: 0 },
      { tcp: 0, udp: 1 },
      { tcp: 1, udp: 1 },
      { tcp: 2, udp: 1 },
    ]);
  });
});
