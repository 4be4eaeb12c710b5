/**
 * The remote nodes' test frame: three Docker engines in network namespaces over mutual TLS, a
 * players' namespace and a registry (test/docker/start-remote-engines.sh; .ci/run exports
 * SESSION_HOST_REMOTE_ENGINES and SESSION_HOST_REMOTE_TLS), their fleet, and a player's view.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import type { FleetConfig } from '../../server/config/fleet-types.js';
import { engineOptions } from '../../server/runtime/docker/engine-client.js';
import { dockerFleet } from './docker.js';

export const remoteEngines = process.env.SESSION_HOST_REMOTE_ENGINES?.split(',').filter(Boolean) ?? [];
export const remoteTls = process.env.SESSION_HOST_REMOTE_TLS ?? '';
export const remoteSkipReason =
  'SESSION_HOST_REMOTE_ENGINES is not set (as root: bash test/docker/start-engines.sh && bash test/docker/start-remote-engines.sh, and export what it prints)';
export const REMOTE_BASE = process.env.SESSION_HOST_REMOTE_BASE ?? '/var/lib/session-host-remote';
export const REGISTRY_IMAGE = '10.231.0.99:5000/session-host-echo:remote';
/** The players' side: a namespace of its own on the nodes' network. */
export const CLIENT_NAMESPACE = 'shrnc';

/** The node's address (its engine's host): where players reach its sessions. */
export const hostOf = (engine: string) => new URL(engine.replace(/^tcp:/, 'http:')).hostname;

export const tlsFiles = (client = 'client', ca = 'ca') => ({
  ca: join(remoteTls, `${ca}.pem`),
  cert: join(remoteTls, `${client}.pem`),
  key: join(remoteTls, `${client}-key.pem`),
});

export const remoteDocker = (n: number, tls = tlsFiles()) => new Docker({ ...engineOptions(remoteEngines[n - 1]!, tls), timeout: 5000 });

/**
 * Location `remote-N` holds node `rN` alone (engine N at 10.231.0.1N); images `echo`, `pulled`
 * (the registry's copy of the test image) and `unpullable` (a tag the registry does not have).
 */
export function remoteFleet(change: (fleet: FleetConfig) => void = () => {}): FleetConfig {
  return dockerFleet((fleet) => {
    const base = fleet.locations[0]!.nodes[0]!;
    fleet.locations = remoteEngines.map((engine, i) => ({
      id: `remote-${i + 1}`,
      ips: [hostOf(engine)],
      nodes: [{ ...base, id: `r${i + 1}`, host: hostOf(engine), capacity: 4, docker: { engine, tls: tlsFiles(), publishIp: hostOf(engine) } }],
    }));
    const echo = fleet.images.find((i) => i.name === 'echo')!;
    const like = (name: string, image: string) => ({ ...structuredClone(echo), name, tags: { latest: { ...structuredClone(echo.tags.latest!), docker: { image, user: '1000:1000' } } } });
    fleet.images = [echo, like('pulled', REGISTRY_IMAGE), like('unpullable', REGISTRY_IMAGE.replace(':remote', ':not-pushed'))];
    change(fleet);
  });
}

/** Run Node code in the players' namespace; its stdout. */
export async function asPlayer(script: string): Promise<string> {
  const { stdout } = await promisify(execFile)('ip', ['netns', 'exec', CLIENT_NAMESPACE, process.execPath, '-e', script], { timeout: 20_000 });
  return stdout.trim();
}

/** One UDP datagram and one TCP line to host:ports from the players' namespace; both replies, or the errors. */
export function echoGame(host: string, udp: number, tcp: number, text: string): Promise<string> {
  return asPlayer(`
const dgram = require('dgram'), net = require('net');
const udpReply = new Promise((resolve) => {
  const s = dgram.createSocket('udp4');
  const t = setTimeout(() => { s.close(); resolve('udp timeout'); }, 3000);
  s.once('message', (m) => { clearTimeout(t); s.close(); resolve(m.toString()); });
  s.send(${JSON.stringify(text)}, ${udp}, ${JSON.stringify(host)});
});
const tcpReply = new Promise((resolve) => {
  const c = net.connect(${tcp}, ${JSON.stringify(host)}, () => c.write(${JSON.stringify(text)} + '\\n'));
  let got = ''; c.setTimeout(3000, () => { c.destroy(); resolve('tcp timeout'); });
  c.on('data', (d) => { got += d; const i = got.indexOf('\\n'); if (i >= 0) { c.end(); resolve(got.slice(0, i)); } });
  c.on('error', (e) => resolve('tcp ' + e.code));
});
Promise.all([udpReply, tcpReply]).then((r) => console.log(JSON.stringify(r)));
`);
}

export const startRemoteEngines = () => promisify(execFile)('bash', ['test/docker/start-remote-engines.sh'], { timeout: 180_000 });
export const stopRemoteNode = (n: number, engineOnly = false) =>
  promisify(execFile)('bash', ['test/docker/stop-remote-engines.sh', ...(engineOnly ? ['--engine-only'] : []), String(n)], { timeout: 60_000 });
