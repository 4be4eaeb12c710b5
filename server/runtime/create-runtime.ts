/**
 * The runtime the configuration asks for: simulated (the sandbox, benchmarks), Docker, or
 * processes (the default), with the checks each needs before it can run.
 */
import { join } from 'node:path';
import type { Config } from '../config/environment.js';
import { FleetConfigError } from '../config/fleet.js';
import type { FleetConfig } from '../config/fleet-types.js';
import type { Runtime } from '../domain/ports/runtime.js';
import { DockerRuntime } from './docker/docker-runtime.js';
import { ProcessRuntime } from './process/process-runtime.js';
import type { StartFailureOptions } from './process/start-failures.js';
import { processSandboxes } from './process/sandboxes.js';
import { DEFAULT_RETENTION_FILES, DEFAULT_RETENTION_MB } from './process/retention.js';
import { SimulatedRuntime } from './simulated-runtime.js';

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The runtime that runs game servers: the sandbox's is simulated; RUNTIME overrides the fleet's. */
export function runtimeDriver(config: Config, fleet: FleetConfig): FleetConfig['runtime']['driver'] {
  return config.sandbox ? 'simulated' : (config.runtime ?? fleet.runtime.driver);
}

/**
 * `instanceId`: this instance (a game server's supervisor belongs to the instance on its host);
 * `deploymentId`: with several instances, the deployment they make up, whose Docker containers
 * any of them may adopt (Docker nodes move between instances); `startFailures`: where the process
 * runtime logs failed starts and reports those that found no space.
 */
export function createRuntime(
  config: Config,
  fleet: FleetConfig,
  now: () => number,
  instanceId: string,
  deploymentId?: string,
  startFailures?: StartFailureOptions,
): Runtime {
  // Other instances share the store: sessions this one knows nothing of are theirs.
  const shared = config.databaseUrl !== undefined;
  const driver = runtimeDriver(config, fleet);
  if (driver === 'simulated') return new SimulatedRuntime({ ...config.simulated, now });
  if (driver === 'docker') {
    if (!isLoopback(config.host)) {
      console.warn(
        `HOST=${config.host}: the API listens beyond loopback while game servers run in containers; ` +
          'apply deploy/docker/session-host-firewall.nft on every engine host (and keep the API behind a proxy) so no container reaches it',
      );
    }
    const local = fleet.locations.flatMap((l) => l.nodes).some((n) => n.docker?.engine.startsWith('unix://'));
    if (local && process.getuid?.() !== 0) {
      throw new FleetConfigError(
        'the docker runtime mounts each session\'s size-limited working directory on this machine, which needs root: run the service as root',
      );
    }
    return new DockerRuntime({
      dataDir: config.dataDir,
      nodes: fleet.locations.flatMap((l) => l.nodes).map((n) => ({ id: n.id, docker: n.docker! })),
      graceMs: fleet.runtime.stopGraceSeconds * 1000,
      retentionHours: fleet.runtime.retentionHours ?? 24,
      now,
      owner: deploymentId ?? instanceId,
      nodeLostAfterMs: (fleet.runtime.nodeLostAfterSeconds ?? 300) * 1000,
      pullTimeoutMs: (fleet.runtime.pullTimeoutSeconds ?? 300) * 1000,
      // Warm containers learn their sessions through it too.
      sdkNeeded:
        fleet.images.some((image) => Object.values(image.tags).some((tag) => tag.readiness === 'sdk' || tag.healthSeconds !== undefined)) ||
        (fleet.pools ?? []).some((pool) => pool.warm > 0),
    });
  }
  return new ProcessRuntime({
    sessionsDir: join(config.dataDir, 'sessions'),
    graceMs: fleet.runtime.stopGraceSeconds * 1000,
    retentionMs: (fleet.runtime.retentionHours ?? 24) * 3600_000,
    retentionBytes: (fleet.runtime.retentionMb ?? DEFAULT_RETENTION_MB) * 1024 * 1024,
    retentionEntries: fleet.runtime.retentionFiles ?? DEFAULT_RETENTION_FILES,
    sandboxes: processSandboxes(fleet, config.dataDir),
    now,
    instanceId,
    shared,
    startFailures,
  });
}
