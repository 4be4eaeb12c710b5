/**
 * A Docker start released to its node's holder while its image was pulled (review 4, finding 6):
 * once launched it is let go, and if its session ended meanwhile (its start deadline fired as the
 * pull finished) its stop had found nobody watching it and no instance adopts an ended session.
 * The runtime reads the session again after such a launch and stops the container if it ended;
 * if it is live, the container runs on for the node's holder to adopt.
 *
 * A real pull from a registry of the test's own (Debian's docker-registry on loopback, which an
 * engine trusts without TLS) on engine 1.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchSpec } from '../../server/domain/ports/runtime.js';
import { DockerRuntime } from '../../server/runtime/docker/docker-runtime.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { containerOf as found, docker, engines, IMAGE, removeLeftovers, skipReason } from '../support/docker.js';
import { containerLaunch } from '../support/launch-specs.js';

const NODE = 'dock-1';
/** The session's container, or undefined before there is one. */
const containerOf = (id: string) => found(id).catch(() => undefined);
const PREFIX = `released-${Math.random().toString(36).slice(2, 6)}-`;

/** Follow a push or pull stream of the engine to its end, failing on an error it reports. */
async function followed(stream: NodeJS.ReadableStream): Promise<void> {
  await new Promise<void>((resolve, reject) =>
    docker(engines[0]!).modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => {
      const failed = error ?? output.find((line) => line.error);
      if (failed) reject(new Error(String((failed as { error?: string }).error ?? failed)));
      else resolve();
    }),
  );
}

describe.skipIf(engines.length < 1)(`a Docker start let go after its pull${engines.length < 1 ? ` (skipped: ${skipReason})` : ''}`, () => {
  let registry: ChildProcess;
  let dir: string;
  let ref: string;
  let runtime: DockerRuntime;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'session-host-released-'));
    const port = await freePort();
    writeFileSync(
      join(dir, 'registry.yml'),
      `version: 0.1\nlog: { level: warn }\nstorage: { filesystem: { rootdirectory: ${dir}/registry } }\nhttp: { addr: "127.0.0.1:${port}" }\n`,
    );
    registry = spawn('docker-registry', ['serve', join(dir, 'registry.yml')], { stdio: 'ignore' });
    await eventually(() => fetch(`http://127.0.0.1:${port}/v2/`).then((r) => r.ok, () => false), { what: 'the registry answering' });
    // The test image in the registry, then untagged on the engine: a start must pull it.
    const api = docker(engines[0]!);
    const repo = `127.0.0.1:${port}/${PREFIX}echo`;
    ref = `${repo}:test`;
    await api.getImage(IMAGE).tag({ repo, tag: 'test' });
    // A registry without accounts: the engine still wants an X-Registry-Auth header, empty.
    await followed(await api.getImage(ref).push({ authconfig: {} }));
    await api.getImage(ref).remove();
    runtime = new DockerRuntime({
      dataDir: join(dir, 'data'),
      nodes: [{ id: NODE, docker: { engine: engines[0]!, publishIp: '127.0.0.1' } }],
      graceMs: 1000,
      retentionHours: 1,
      now: Date.now,
      owner: `${PREFIX}owner`,
      nodeLostAfterMs: 300_000,
      pullTimeoutMs: 60_000,
    });
  }, 120_000);

  afterAll(async () => {
    await runtime?.close();
    await removeLeftovers(PREFIX);
    await docker(engines[0]!).getImage(ref).remove().catch(() => {});
    registry?.kill();
    // A failed run can leave a session's working directory mounted (its end never ran).
    const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((line) => line.split(' ')[1] ?? '');
    for (const mount of mounts) if (mount.startsWith(`${dir}/`)) execFileSync('umount', ['-l', mount.replace(/\\040/g, ' ')]);
    rmSync(dir, { recursive: true, force: true });
  });

  const spec = async (id: string): Promise<LaunchSpec> => containerLaunch(id, ref, NODE, await freePort(), { SESSION_ID: id });

  /** Start with a pull, and hand the session to "another instance" before the pull is done. */
  const startReleased = async (id: string, live: boolean) => {
    const launch = await spec(id);
    await runtime.start(launch);
    runtime.release(launch.sessionId, async () => live);
    return launch;
  };

  it('stops the container of a session that ended while its image was pulled', async () => {
    const launch = await startReleased(`${PREFIX}ended`, false);
    // Launched (it exists), then stopped here: it does not run on for a dead session.
    const container = await eventually(async () => (await containerOf(launch.publicId))?.info, {
      until: (info) => info !== undefined && !info.State.Running && info.State.FinishedAt !== '0001-01-01T00:00:00Z',
      timeoutMs: 60_000,
      what: 'the ended session\'s container launched and stopped',
    });
    expect(container!.State.Running).toBe(false);
    // Its end finished here (artifacts copied, working directory unmounted), not left to anyone.
    await eventually(() => !runtime.supervises(launch.sessionId), { what: 'the stopped session let go' });
  }, 90_000);

  it('leaves the container of a session still live running, for its node\'s holder to adopt', async () => {
    const launch = await startReleased(`${PREFIX}live`, true);
    await eventually(async () => !runtime.supervises(launch.sessionId) && (await containerOf(launch.publicId))?.info.State.Running, {
      timeoutMs: 60_000,
      what: 'the live session\'s container launched and let go',
    });
    expect((await containerOf(launch.publicId))!.info.State.Running).toBe(true);
    // As the holder would: adopted, then stopped (which also unmounts its working directory).
    await runtime.adopt({ sessionId: launch.sessionId, nodeId: NODE, host: launch.host, ports: launch.ports, wasRunning: true });
    await runtime.stop(launch.sessionId);
    await eventually(async () => (await containerOf(launch.publicId))?.info.State.Running === false, { timeoutMs: 30_000, what: 'the adopted container stopped' });
  }, 90_000);
});
