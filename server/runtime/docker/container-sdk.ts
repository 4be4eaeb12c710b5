/**
 * The game-server SDK (spec/sdk/) of containers on engines of this machine (`unix://` engines).
 * The service serves each container's socket itself, with sdk-server.mjs (the protocol and the
 * ready/health bookkeeping both runtimes share), in a directory of its own per session:
 *
 *   <dataDir>/docker/sdk/<hash of the session key>/
 *     sdk.json     what a later supervisor needs to serve it again (allocation, readiness, health)
 *     run/         bind-mounted read-only into the container at /run/session-host
 *       sdk.sock   owned by the container's (numeric, non-root) uid, mode 0600
 *     bind/        the service's alone (0700), seen by no container: the socket is bound here,
 *                  made the container uid's, then renamed into run/
 *
 * No other container mounts that directory, so none can reach the socket (the engine resolves a
 * bind mount's source on the host; a container sees only what is mounted into it), and inside
 * the container only the game server's uid can open it. The directory's name is a hash: a unix
 * socket's path is short (sdk-server.mjs's MAX_SOCKET_PATH), a session key need not be.
 *
 * Engines over TCP cannot bind-mount a socket of this machine: sessions there get no SDK (and the
 * fleet check refuses readiness `sdk` and `healthSeconds` where any node's engine is remote).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AllocatedSession } from '../../../generated/sdk/types.js';
import type { LaunchSpec, WarmAllocation } from '../../domain/ports/runtime.js';
import { allocationOf, SDK_DIR_IN_SESSION, SDK_SOCKET, SDK_SOCKET_IN_SESSION } from '../sdk-endpoint.js';
import { MAX_SOCKET_PATH, sdkLiveness, serveSdk, type SdkLiveness } from '../sdk-server.mjs';
import { WindowedWrites } from '../windowed-writes.js';

/** What sdk.json holds: enough to serve a session's SDK again after a restart or on another instance. */
export interface SdkSettings {
  uid: number;
  /** The session it runs for; null while it is a warm game server waiting for one (`warm` holds its host and ports then). */
  allocation: AllocatedSession | null;
  warm?: AllocatedSession;
  readiness: 'ports' | 'sdk';
  healthSeconds?: number;
}

/** What the runtime hears from a container's game server through its SDK. */
export interface SdkHooks {
  /** It said ready (every `POST /ready`: the runtime finds which container start said it). */
  ready(sessionId: string): void;
  /** It said ready, then went `healthSeconds` without a health ping: the runtime kills it. */
  missedHealth(sessionId: string): void;
  /** Whether its health is watched now (the session runs and its engine answers). */
  watched(sessionId: string): boolean;
}

interface Served {
  /** The directory bind-mounted into the container. */
  runDir: string;
  settings: SdkSettings;
  liveness: SdkLiveness;
  close(): void;
  setPlayers(players: string[]): void;
  /** Its session from now on; returns what answers the calls that waited for it (sdk-server.mjs: allocate). */
  allocate(session: AllocatedSession): () => void;
}

export class ContainerSdks {
  private readonly served = new Map<string, Served>();
  /**
   * sdk.json after players change, at most once a second per session (windowed-writes.ts: the
   * whole allocation, labels and players, per ~200-byte join), with its settings as they are then.
   */
  private readonly playersWrites = new WindowedWrites<undefined>((sessionId) => {
    const served = this.served.get(sessionId);
    if (!served) return;
    try {
      this.writeSettings(dirname(served.runDir), served.settings);
    } catch {
      // No space: whoever serves it next starts from the players it had before.
    }
  });

  constructor(
    private readonly root: string,
    private readonly hooks: SdkHooks,
  ) {}

  /** Whether this data directory's sockets are a short enough path. */
  static fits(root: string): boolean {
    return ContainerSdks.longestPath(root) <= MAX_SOCKET_PATH;
  }

  private static longestPath(root: string): number {
    return join(root, '0'.repeat(16), 'run', SDK_SOCKET).length;
  }

  /** Throws when this data directory's sockets would be too long a path (at start-up, not at the first start). */
  static checkRoot(root: string): void {
    const longest = ContainerSdks.longestPath(root);
    if (longest > MAX_SOCKET_PATH) {
      throw new Error(
        `the data directory's path is too long for the Docker sessions' SDK sockets (${longest} bytes under ${root}, at most ${MAX_SOCKET_PATH}: a unix socket's path is short); use a shorter data directory`,
      );
    }
  }

  /** The per-session directory, named by the key's hash (a socket path is short). */
  dirOf(sessionId: string): string {
    return join(this.root, createHash('sha256').update(sessionId).digest('hex').slice(0, 16));
  }

  /**
   * Serve a new session's SDK, before its container starts (so the socket is there, and the game
   * server's, when it first calls). Returns the container's bind mount and environment.
   */
  async serveNew(spec: LaunchSpec, uid: number): Promise<{ mount: { Type: 'bind'; Source: string; Target: string; ReadOnly: true }; env: Record<string, string> }> {
    const dir = this.dirOf(spec.sessionId);
    // A warm game server learns its session when a start claims it (allocate()).
    const allocation = allocationOf(spec);
    const settings: SdkSettings = { uid, ...(spec.warm ? { allocation: null, warm: allocation } : { allocation }), readiness: spec.sdk.readiness, ...(spec.sdk.healthSeconds ? { healthSeconds: spec.sdk.healthSeconds } : {}) };
    // The service's directories: the container's uid may pass through run/ (to its socket), list nothing.
    mkdirSync(join(dir, 'run'), { recursive: true, mode: 0o711 });
    this.writeSettings(dir, settings);
    const runDir = await this.serve(spec.sessionId, join(dir, 'run'), settings);
    return { mount: { Type: 'bind', Source: runDir, Target: SDK_DIR_IN_SESSION, ReadOnly: true }, env: { SESSION_HOST_SDK: SDK_SOCKET_IN_SESSION } };
  }

  /**
   * Serve an adopted session's SDK again (after a service restart, or another instance's node
   * taken over), from its container's mount: that is where its socket must be, whoever made it.
   * False when the container has none (launched without the SDK) or its settings cannot be read.
   */
  async serveAdopted(sessionId: string, mounts: readonly { Source?: string; Destination?: string }[] | undefined, wasRunning: boolean): Promise<boolean> {
    if (this.served.has(sessionId)) return true;
    const runDir = mounts?.find((mount) => mount.Destination === SDK_DIR_IN_SESSION)?.Source;
    if (!runDir) return false;
    let settings: SdkSettings;
    try {
      settings = JSON.parse(readFileSync(join(dirname(runDir), 'sdk.json'), 'utf8'));
    } catch (error) {
      console.warn(`session ${sessionId}: its SDK is not served again (${(error as Error).message})`);
      return false;
    }
    try {
      await this.serve(sessionId, runDir, settings);
    } catch (error) {
      console.warn(`session ${sessionId}: its SDK is not served again (${(error as Error).message})`);
      return false;
    }
    // A game server seen running said ready before (or needed not to): its health is watched from now.
    if (wasRunning) this.served.get(sessionId)?.liveness.ready();
    return true;
  }

  private async serve(sessionId: string, runDir: string, settings: SdkSettings): Promise<string> {
    const liveness = sdkLiveness({
      healthSeconds: settings.healthSeconds,
      live: () => this.hooks.watched(sessionId),
      onMissed: () => this.hooks.missedHealth(sessionId),
    });
    let server;
    try {
      server = await serveSdk({
        socketPath: join(runDir, SDK_SOCKET),
        // A sibling of the mounted directory, on its file system (a rename does not cross one).
        bindDir: join(dirname(runDir), 'bind'),
        uid: settings.uid,
        allocation: settings.allocation,
        onReady: () => this.hooks.ready(sessionId),
        onHealth: () => liveness.health(),
        // Kept in the SDK's own answers; not yet reflected in the control API (as on the process runtime).
        onPlayers: () => {},
      });
    } catch (error) {
      liveness.stop();
      throw error;
    }
    this.served.set(sessionId, {
      runDir,
      settings,
      liveness,
      setPlayers: (players) => server.setPlayers(players),
      allocate: (session) => server.allocate(session),
      close: () => {
        liveness.stop();
        server.close();
      },
    });
    return runDir;
  }

  /** Its readiness (`ports` unless its tag says `sdk`); undefined when it has no SDK served here. */
  readiness(sessionId: string): 'ports' | 'sdk' | undefined {
    return this.served.get(sessionId)?.settings.readiness;
  }

  healthSeconds(sessionId: string): number | undefined {
    return this.served.get(sessionId)?.settings.healthSeconds;
  }

  liveness(sessionId: string): SdkLiveness | undefined {
    return this.served.get(sessionId)?.liveness;
  }

  /**
   * A warm game server's session (a start claimed it): its SDK answers with it from now on, and
   * sdk.json keeps it for whoever serves it next. Throws when this service does not serve it (its
   * engine's node went to another instance, or it was never served: the start then ends
   * `start_failed`) or it has a session already.
   */
  allocate(sessionId: string, { id, labels, players }: WarmAllocation): void {
    const served = this.served.get(sessionId);
    if (!served) throw new Error(`session ${sessionId}: its game server's SDK is not served here`);
    const { allocation, warm } = served.settings;
    if (allocation || !warm) throw new Error(`session ${sessionId}: its game server has a session already`);
    const session: AllocatedSession = { ...warm, id, labels, players };
    // Written first: a service that dies before the game server hears it serves it to it next time.
    this.writeSettings(dirname(served.runDir), { ...served.settings, allocation: session });
    served.settings = { ...served.settings, allocation: session };
    served.allocate(session)();
  }

  /** Whether it is a warm game server still waiting for its session. */
  awaitsAllocation(sessionId: string): boolean {
    const served = this.served.get(sessionId);
    return served !== undefined && served.settings.allocation === null;
  }

  /** The players the control API joined: in the SDK's allocation, and in sdk.json for whoever serves it next. */
  setPlayers(sessionId: string, players: readonly string[]): void {
    const served = this.served.get(sessionId);
    if (!served) return;
    served.setPlayers([...players]);
    const { allocation } = served.settings;
    if (!allocation) return;
    served.settings = { ...served.settings, allocation: { ...allocation, players: [...players] } };
    this.playersWrites.changed(sessionId, undefined);
  }

  /** Stop serving it (another instance supervises it now, or the service closes); its socket stays for the next. */
  close(sessionId: string): void {
    // Whoever serves it next reads the players of the last second too.
    this.playersWrites.flush(sessionId);
    this.served.get(sessionId)?.close();
    this.served.delete(sessionId);
  }

  /** The session ended: stop serving it and remove its directory. */
  remove(sessionId: string): void {
    const runDir = this.served.get(sessionId)?.runDir;
    // Its directory goes: the players of the last second are not written into it first.
    this.playersWrites.discard(sessionId);
    this.close(sessionId);
    rmSync(runDir ? dirname(runDir) : this.dirOf(sessionId), { recursive: true, force: true });
  }

  closeAll(): void {
    for (const sessionId of [...this.served.keys()]) this.close(sessionId);
  }

  private writeSettings(dir: string, settings: SdkSettings): void {
    writeFileSync(join(dir, 'sdk.json.tmp'), JSON.stringify(settings), { mode: 0o600 });
    renameSync(join(dir, 'sdk.json.tmp'), join(dir, 'sdk.json'));
  }
}
