/**
 * Creating and starting a session's container: the session env, published ports (allocated host
 * port -> declared container port; the game server binds the container port, `PORT_<NAME>`),
 * limits (memory without swap, CPUs, pids, open files per process), no privileges (all capabilities dropped,
 * no-new-privileges, read-only root filesystem with a tmpfs /tmp and for each VOLUME the image
 * declares, and a volume for the working directory), its own network, and on an engine of this machine its SDK socket's directory
 * (container-sdk.ts). A failure leaves nothing behind.
 */
import type Docker from 'dockerode';
import { mkdirSync } from 'node:fs';
import { posix } from 'node:path';
import type { PortAllocation } from '../../domain/ports/sessions.js';
import type { LaunchSpec } from '../../domain/ports/runtime.js';
import { LABEL, type Engine } from './engine-client.js';
import { DEFAULT_ARTIFACTS_MB, type Tracked } from './reconciler.js';
import type { SessionFiles } from './session-files.js';
import { createSessionNetwork, removeSessionNetwork } from './session-network.js';
import { createWorkFilesystem, removeWorkFilesystem } from './work-filesystem.js';

/** `nobody`: a tag that names no user never runs its game server as root. */
export const DEFAULT_USER = '65534:65534';
const DEFAULT_WORK_MB = 1024;
/**
 * Open files per process (nofile, soft = hard) when the tag says nothing: a container's share of
 * the host's file table is at most pids x this, where the engine's default (dockerd's own limit:
 * 20,000 on the test engines, 524,288 hard under systemd's defaults) would let each process hold
 * that many (outside check 9, F6).
 */
export const DEFAULT_OPEN_FILES = 1024;
/** /tmp, and every VOLUME the image declares: in memory (charged to the container's memory limit), never on the engine host's disk. */
const TMPFS_OPTIONS = 'rw,nosuid,nodev,size=64m';

/** The game-server SDK's socket directory, mounted read-only, and its environment (container-sdk.ts). */
export interface ContainerSdkMount {
  mount: Docker.MountConfig[number];
  env: Record<string, string>;
}

/** The uid a tag's container runs as (`docker.user`, numeric by the fleet schema, or nobody). */
export function containerUid(spec: LaunchSpec): number {
  return Number((spec.container?.user ?? DEFAULT_USER).split(':')[0]);
}

/** Create and start the container; `tracked` gets its id. Rejects (having removed what it made) when it cannot. */
export async function launchContainer(
  engine: Engine,
  spec: LaunchSpec,
  tracked: Tracked,
  instance: string,
  files: SessionFiles,
  sdk?: ContainerSdkMount,
): Promise<void> {
  const workDir = tracked.workDir;
  if (!spec.container) throw new Error(`session ${spec.sessionId}: the docker runtime needs a container image`);
  const env = { ...spec.env, ...sdk?.env };
  // Inside the container the game server binds the declared port; clients reach it on the published one.
  for (const port of spec.ports) {
    env[`PORT_${port.name.toUpperCase()}`] = String(port.container);
    env[`PUBLIC_PORT_${port.name.toUpperCase()}`] = String(port.host);
  }
  const key = (p: PortAllocation) => `${p.container}/${p.type}`;
  const { memoryMb, cpus, pids, openFiles = DEFAULT_OPEN_FILES, user = DEFAULT_USER, workMb = DEFAULT_WORK_MB, artifactsMb = DEFAULT_ARTIFACTS_MB } = spec.container;
  const labels = {
    [LABEL.session]: spec.sessionId,
    [LABEL.id]: spec.publicId,
    [LABEL.account]: spec.accountId,
    [LABEL.location]: spec.location,
    [LABEL.node]: spec.nodeId,
    [LABEL.instance]: instance,
  };
  const sessionDir = files.dir(spec.sessionId);
  let network: string | undefined;
  try {
    const image = (await engine.api.getImage(spec.container.image).inspect()).Config;
    const cmd = command(image, spec);
    network = await createSessionNetwork(engine.api, labels);
    mkdirSync(sessionDir, { recursive: true, mode: 0o700 });
    // A size-limited filesystem where the engine is on this machine; a plain volume elsewhere.
    const work: Docker.MountConfig[number] = engine.local
      ? { Type: 'bind', Source: await createWorkFilesystem(sessionDir, workMb, user), Target: workDir }
      : { Type: 'volume', Source: '', Target: workDir };
    const container = await engine.api.createContainer({
      Image: spec.container.image,
      ...(cmd ? { Cmd: cmd } : {}),
      Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
      WorkingDir: workDir,
      User: user,
      Labels: { ...labels, [LABEL.artifactBytes]: String(artifactsMb * 1024 * 1024) },
      ExposedPorts: Object.fromEntries(spec.ports.map((p) => [key(p), {}])),
      HostConfig: {
        NetworkMode: network,
        PortBindings: Object.fromEntries(spec.ports.map((p) => [key(p), [{ HostIp: engine.publishIp, HostPort: String(p.host) }]])),
        RestartPolicy: spec.restart ? { Name: 'on-failure', MaximumRetryCount: 0 } : { Name: 'no' },
        Privileged: false,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges:true'],
        ReadonlyRootfs: true,
        Tmpfs: Object.fromEntries([...declaredVolumes(image, workDir), '/tmp'].map((path) => [path, TMPFS_OPTIONS])),
        // Writable, kept after the end until the artifacts are copied out.
        Mounts: [work, ...(sdk ? [sdk.mount] : [])],
        LogConfig: { Type: 'json-file', Config: { 'max-size': '10m', 'max-file': '3' } },
        ...(memoryMb ? { Memory: memoryMb * 1024 * 1024, MemorySwap: memoryMb * 1024 * 1024 } : {}),
        ...(cpus ? { NanoCpus: Math.round(cpus * 1e9) } : {}),
        ...(pids ? { PidsLimit: pids } : {}),
        // No core dumps (as the process runtime's prlimit --core=0): the engine's default hard limit is
        // unlimited, so a game server could raise its own and crash-loop (restart: on-failure) dumps
        // of up to its memory limit into the engine host's core handler (apport, systemd-coredump),
        // which runs outside the container and its limits.
        Ulimits: [{ Name: 'nofile', Soft: openFiles, Hard: openFiles }, { Name: 'core', Soft: 0, Hard: 0 }],
      },
    });
    tracked.containerId = container.id;
    try {
      await container.start();
    } catch (error) {
      await container.remove({ force: true, v: true }).catch(() => {});
      throw error;
    }
  } catch (error) {
    if (network) await removeSessionNetwork(engine.api, network);
    await removeWorkFilesystem(sessionDir);
    throw error;
  }
}

/**
 * The container's command (CMD), which follows the image's ENTRYPOINT: the tag's `command`, or
 * else the image's own CMD, then the request's args. The args never replace what the image
 * runs: without an ENTRYPOINT, CMD is the program itself.
 */
function command(image: Docker.ImageInspectInfo['Config'], spec: LaunchSpec): string[] | undefined {
  const { command } = spec.container!;
  if (command) return [...command, ...spec.args];
  if (spec.args.length === 0) return undefined;
  return [...(image.Cmd ?? []), ...spec.args];
}

/**
 * The paths the image declares as VOLUMEs, but the working directory and /tmp (mounted anyway).
 * Left alone, the engine gives each an anonymous volume on its host's disk, writable and of no
 * size limit, whatever the read-only root and `workMb` say: a hostile image fills the engine
 * host's disk through one. A tmpfs at the same path takes its place (the engine then makes no
 * volume), its writes bounded by its size and charged to the memory limit.
 */
export function declaredVolumes(image: Pick<Docker.ImageInspectInfo['Config'], 'Volumes'>, workDir: string): string[] {
  const clean = (path: string) => posix.join('/', path).replace(/(.)\/+$/, '$1');
  const skip = new Set([clean(workDir), '/tmp']);
  return [...new Set(Object.keys(image.Volumes ?? {}).map(clean))].filter((path) => !skip.has(path));
}
