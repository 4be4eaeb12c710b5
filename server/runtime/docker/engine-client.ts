/**
 * One node's Docker engine as the runtime sees it: two dockerode clients (short requests with a
 * timeout, long-lived streams without), whether the engine is on this machine, where ports are
 * published, and whether it answers. Containers and networks carry labels naming the session and
 * their owner (this service's instance, or with several instances their deployment): nobody adopts
 * what is not theirs.
 */
import Docker from 'dockerode';
import { readFileSync } from 'node:fs';
import type { NodeDockerConfig } from '../../config/fleet-types.js';
import { FleetConfigError } from '../../config/fleet.js';

export const LABEL = {
  /** The session's key (unique across accounts): what the runtime finds its container by. */
  session: 'session-host.session',
  /** The id its account chose, for people (`docker ps --filter label=session-host.id=match-1`). */
  id: 'session-host.id',
  account: 'session-host.account',
  location: 'session-host.location',
  node: 'session-host.node',
  instance: 'session-host.instance',
  /** The session's artifact cap in bytes (read back at the end, also after a restart). */
  artifactBytes: 'session-host.artifact-bytes',
};

const REQUEST_TIMEOUT_MS = 5000;

export interface Engine {
  nodeId: string;
  /** Short requests, with a timeout (an unreachable engine must not hang polling). */
  api: Docker;
  /** Long-lived requests (followed logs, stops with a grace period, archives): no timeout. */
  streams: Docker;
  local: boolean;
  publishIp: string;
  /** Answers (heartbeat, or any request): takes sessions. */
  available: boolean;
  /** Since when (monotonic ms) it has not answered; undefined while it answers. */
  downSince?: number;
  /** Unanswering past the node-lost timeout: its sessions ended `node_lost`. */
  lost: boolean;
  /** When it last answered (wall clock, ms since the epoch), for the panel. */
  lastSeen?: number;
  polling: boolean;
  /** Its clock's offset from the service's, when last measured (engine-clock.ts). */
  clock?: { offsetMs: number; measuredAt: number };
}

/** dockerode's options for an engine address; with `tls`, HTTPS with a client certificate. */
export function engineOptions(address: string, tls?: NodeDockerConfig['tls']): Docker.DockerOptions {
  if (address.startsWith('unix://')) return { socketPath: address.slice('unix://'.length) };
  const url = new URL(address.replace(/^tcp:/, 'http:'));
  const endpoint = { host: url.hostname, port: Number(url.port) };
  if (!tls) return { ...endpoint, protocol: 'http' };
  const [ca, cert, key] = (['ca', 'cert', 'key'] as const).map((name) => {
    try {
      return readFileSync(tls[name]);
    } catch (error) {
      // At start-up, so one line from main, not a stack trace.
      throw new FleetConfigError(`docker.tls.${name} ${tls[name]} of ${address} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
  });
  return { ...endpoint, protocol: 'https', ca, cert, key };
}

export function openEngine(nodeId: string, docker: NodeDockerConfig): Engine {
  const base = engineOptions(docker.engine, docker.tls);
  return {
    nodeId,
    api: new Docker({ ...base, timeout: REQUEST_TIMEOUT_MS }),
    streams: new Docker(base),
    local: docker.engine.startsWith('unix://'),
    publishIp: docker.publishIp ?? '0.0.0.0',
    available: true,
    lost: false,
    polling: false,
  };
}

/** The owner's containers on the engine (of one session, with `sessionId`), ended ones too. */
export function listContainers(engine: Engine, instance: string, sessionId?: string, status?: string[]): Promise<Docker.ContainerInfo[]> {
  const label = [`${LABEL.instance}=${instance}`, ...(sessionId === undefined ? [] : [`${LABEL.session}=${sessionId}`])];
  return engine.api.listContainers({ all: true, filters: { label, ...(status ? { status } : {}) } });
}

export function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number }).statusCode;
}
