/**
 * One node's Docker engine as the runtime sees it: two dockerode clients (short requests with a
 * timeout, long-lived streams without), whether the engine is on this machine, where ports are
 * published, and whether it answers. Containers and networks carry labels naming the session and
 * this service's instance: nobody adopts what is not theirs.
 */
import Docker from 'dockerode';
import { readFileSync } from 'node:fs';
import type { NodeDockerConfig } from '../../config/fleet-types.js';

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
  available: boolean;
  polling: boolean;
}

/** dockerode's options for an engine address; with `tls`, HTTPS with a client certificate. */
export function engineOptions(address: string, tls?: NodeDockerConfig['tls']): Docker.DockerOptions {
  if (address.startsWith('unix://')) return { socketPath: address.slice('unix://'.length) };
  const url = new URL(address.replace(/^tcp:/, 'http:'));
  const endpoint = { host: url.hostname, port: Number(url.port) };
  if (!tls) return { ...endpoint, protocol: 'http' };
  const [ca, cert, key] = [tls.ca, tls.cert, tls.key].map((file) => readFileSync(file));
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
    polling: false,
  };
}

/** This instance's containers on the engine (of one session, with `sessionId`), ended ones too. */
export function listContainers(engine: Engine, instance: string, sessionId?: string, status?: string[]): Promise<Docker.ContainerInfo[]> {
  const label = [`${LABEL.instance}=${instance}`, ...(sessionId === undefined ? [] : [`${LABEL.session}=${sessionId}`])];
  return engine.api.listContainers({ all: true, filters: { label, ...(status ? { status } : {}) } });
}

export function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number }).statusCode;
}
