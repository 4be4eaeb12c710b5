/**
 * Readiness: a session is `running` once every declared port is bound inside its container.
 * For an engine on this machine (unix socket) the container's own /proc/<pid>/net/{tcp,udp}
 * tables are read, exactly as the process runtime's supervisor does: a TCP connect to the
 * published port would be answered by Docker's userland proxy before the game server listens, and
 * UDP has no handshake at all. For a remote engine, TCP ports are connected to through the
 * published host port and UDP ports are taken as ready with them (documented limitation).
 */
import type Docker from 'dockerode';
import { connect } from 'node:net';
import type { PortAllocation } from '../../domain/ports/sessions.js';
import { boundPorts } from '../socket-table.mjs';
import type { Engine } from './engine-client.js';

const READY_POLL_MS = 10;
const READY_TIMEOUT_MS = 120_000;

export interface ProbedContainer {
  ports: PortAllocation[];
  /** The container start (StartedAt) that readiness was last seen for: a restart is probed again. */
  readyFor?: string;
  restartCount?: number;
}

/**
 * Probe until the container's current start has its ports bound (true, with `readyFor` and
 * `restartCount` updated), or until it stops running, was already seen ready, `wanted` turns
 * false or the deadline passes (false).
 */
export async function probeUntilReady(engine: Engine, containerId: string, probed: ProbedContainer, wanted: () => boolean): Promise<boolean> {
  // Monotonic: a wall clock stepped forward ended the probe at once, one stepped back prolonged it.
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (wanted() && performance.now() < deadline) {
    let info: Docker.ContainerInspectInfo;
    try {
      info = await engine.api.getContainer(containerId).inspect();
    } catch {
      return false;
    }
    if (!info.State.Running) {
      if (!info.State.Restarting) return false;
      await sleep(READY_POLL_MS * 5);
      continue;
    }
    if (probed.readyFor === info.State.StartedAt) return false;
    probed.restartCount = info.RestartCount;
    if (await portsReady(engine, probed.ports, info.State.Pid)) {
      probed.readyFor = info.State.StartedAt;
      return true;
    }
    await sleep(READY_POLL_MS);
  }
  return false;
}

async function portsReady(engine: Engine, ports: PortAllocation[], pid: number): Promise<boolean> {
  if (engine.local) {
    const bound = boundPorts(`/proc/${pid}/net`);
    if (bound) return ports.every((p) => bound[p.type].has(p.container));
  }
  const host = engine.publishIp === '0.0.0.0' ? '127.0.0.1' : engine.publishIp;
  const tcp = ports.filter((p) => p.type === 'tcp');
  const results = await Promise.all(tcp.map((p) => canConnect(host, p.host)));
  return results.every(Boolean);
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
