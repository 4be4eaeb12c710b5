/**
 * The port between the session service and whatever runs game servers (child processes,
 * simulation, Docker). A runtime launches, watches and stops; it reports what happens as
 * events, and the session service alone decides the resulting state.
 *
 * Every `sessionId` here is the session's key (SessionRecord.key), unique across accounts, not
 * the id its caller chose (unique per account only): two accounts' sessions with one id get
 * their own directories, containers and cgroups. The game server sees its id in SESSION_ID.
 */
import type { Readable } from 'node:stream';
import type { SessionLimits, TagDockerConfig } from '../../config/fleet-types.js';
import type { PortAllocation } from './sessions.js';

export interface LaunchSpec {
  /** The session's key. */
  sessionId: string;
  /** The id its account chose (SESSION_ID): for labels people read, never a handle. */
  publicId: string;
  accountId: string;
  location: string;
  /** The node the session was placed on. */
  nodeId: string;
  /**
   * Container runtimes: the image reference and limits (the tag's `docker`) and the tag's
   * `command`; `args` is then only the request's args.
   */
  container?: TagDockerConfig & { image: string; command?: string[] };
  /** Executable and arguments (the image's command, then the request's args). */
  file: string;
  args: string[];
  /** The complete environment of the game server. */
  env: Record<string, string>;
  host: string;
  ports: PortAllocation[];
  /** Restart the game server when it crashes. */
  restart: boolean;
  /** What the session may use (the fleet's limits for its image). */
  limits: SessionLimits;
  /** The session's labels (its game server reads them through the SDK). */
  labels: Record<string, string>;
  /** How the session becomes `running` (the tag's `readiness`, default `ports`) and its SDK health deadline. */
  sdk: { readiness: 'ports' | 'sdk'; healthSeconds?: number };
  /** A warm pool's game server: no session yet (no SESSION_ID); it learns its session from allocate(). */
  warm?: true;
}

/** An allocation sent ahead of its claim's commit (Runtime.prepareAllocation). */
export interface PreparedAllocation {
  /** After the commit: the game server applies it; resolves once its SDK has it. */
  allocate(): Promise<void>;
  /** The claim did not commit: the game server learns nothing. */
  abort(): void;
}

/** What a warm game server learns when a start claims it (through its SDK's allocation). */
export interface WarmAllocation {
  /** The id the account chose. */
  id: string;
  labels: Record<string, string>;
  players: string[];
  /** Restart it when it crashes, as the start asked. */
  restart: boolean;
}

export type RuntimeEvent =
  /** Every declared port accepts connections. */
  | { type: 'running'; sessionId: string; at: number }
  /** The game server crashed and is being started again. */
  | { type: 'restarting'; sessionId: string; at: number }
  /** The game server is gone for good (after a stop, a crash without restart, or a clean exit). */
  | { type: 'exited'; sessionId: string; at: number; exitCode: number | null; signal: string | null }
  /** The runtime lost track of the session (its supervisor died, its node is gone). */
  | { type: 'lost'; sessionId: string; at: number }
  /** The session's node cannot be reached (its engine is down); `running` follows when it is back and the session still runs. */
  | { type: 'unreachable'; sessionId: string; at: number };

/** A node's health as its runtime sees it (runtimes with nodes of their own). */
export interface NodeHealth {
  /** `up`: it answers; `unreachable`: it does not (its sessions are `server_unreachable`); `lost`: silent past the node-lost timeout (its sessions ended `node_lost`). */
  status: 'up' | 'unreachable' | 'lost';
  /** When it last answered (ms since the epoch); null if never. */
  lastSeen: number | null;
}

export interface AdoptSpec {
  sessionId: string;
  nodeId: string;
  host: string;
  ports: PortAllocation[];
  /** Whether the store had seen it running. */
  wasRunning: boolean;
  /** Not yet running nor stopped (`created`): its launch may still be under way on another instance. */
  launching?: boolean;
}

export interface Runtime {
  readonly name: string;
  /** Launch; resolves once launched (not yet running). Failure to launch rejects. */
  start(spec: LaunchSpec): Promise<void>;
  /** SIGTERM, then SIGKILL after the runtime's grace period; ends with an `exited` event. */
  stop(sessionId: string): Promise<void>;
  /** After a service restart, watch a session the store says is live; its state arrives as events. */
  adopt(spec: AdoptSpec): Promise<void>;
  /**
   * The game server's output; with `follow`, the stream stays open until the session ends or
   * `signal` aborts. For a tail: `lastBytes` asks for about the last that many bytes (runtimes
   * that can seek do), `tailLines` for the last lines (where the runtime can ask for them);
   * others may give more, and the caller keeps the end.
   */
  logs(sessionId: string, options: { follow: boolean; signal: AbortSignal; lastBytes?: number; tailLines?: number }): Readable | undefined;
  /** The directory whose files are the session's artifacts, if the runtime keeps any. */
  artifactRoot(sessionId: string): string | undefined;
  /** Where the session itself saw that directory (absolute); left out when it saw it at its own path. */
  artifactViewRoot?(sessionId: string): string | undefined;
  onEvent(listener: (event: RuntimeEvent) => void): void;
  /** Whether the node can take sessions now (its engine answers); runtimes without nodes of their own leave it out. */
  nodeAvailable?(nodeId: string): boolean;
  /** The node's health (heartbeat); runtimes without nodes of their own leave it out. */
  nodeHealth?(nodeId: string): NodeHealth | undefined;
  /** Host ports of the node bound by anyone at all, probed now: placement skips them. Runtimes that cannot tell leave it out. */
  heldPorts?(nodeId: string): ReadonlySet<number>;
  /** Which of these host ports on the node's address someone holds now, probed one by one (cheaper than `heldPorts` for a few). */
  heldAmong?(host: string, ports: readonly number[]): Promise<ReadonlySet<number>>;
  /** Whether the node's engine holds the image; undefined when it cannot tell (unreachable). */
  hasImage?(nodeId: string, image: string): Promise<boolean | undefined>;
  /** The session ended while its node was unreachable: stop what is left of it once the node is back. */
  forget?(sessionId: string): void;
  /** The session's players changed (joined or left through the API): its game server's SDK allocation follows. */
  playersChanged?(sessionId: string, players: readonly string[]): void;
  /** Whether this runtime watches the session now (launched or adopted here, not ended, not released). */
  supervises?(sessionId: string): boolean;
  /**
   * Stop watching the session, leaving it running: another instance supervises its node now.
   * A start still pulling its image is let go once launched; `live` then says whether its session
   * is still live (the store's word): one that ended meanwhile (its start deadline) has its game
   * server stopped here, since the stop found nobody watching it and no instance adopts it now.
   */
  release?(sessionId: string, live?: () => Promise<boolean>): void;
  /**
   * Stop watching every session of the node, leaving them running, from what the runtime itself
   * tracks: a node's lease is mostly lost because the store cannot be reached, so no store read.
   */
  releaseNode?(nodeId: string): void;
  /**
   * Whether any instance can supervise a node's sessions (nodes reached over the network, moved
   * between instances by lease); false or left out: a session belongs to the instance that launched it.
   */
  readonly nodesMove?: boolean;
  /**
   * Hand a warm game server (launched with `warm`) its session; resolves once its SDK answers
   * with it, so the start's answer never precedes what the game server can read. Runtimes
   * without warm pools leave it out.
   */
  allocate?(sessionId: string, allocation: WarmAllocation): Promise<void>;
  /** Whether warm game servers can run on this node (their SDK served there); left out: on every node. */
  canWarm?(nodeId: string): boolean;
  /**
   * Its warm game servers can only be handed a session by the instance that launched them, while
   * its nodes move between instances: with several instances it keeps no warm pools.
   */
  readonly warmNeedsOneInstance?: boolean;
  /**
   * allocate() in two steps, where the runtime can send the allocation ahead: while the claim's
   * transaction runs (the game server's side wakes and reads it meanwhile), applied only by the
   * returned allocate(), called once the claim has committed; abort() when it did not (the game
   * server keeps waiting for a session).
   */
  prepareAllocation?(sessionId: string, allocation: WarmAllocation): PreparedAllocation;
  /**
   * Whether this adopted warm game server still waits for its session (the service died between
   * the claim's commit and the handoff): recovery hands the allocation over again.
   */
  awaitsAllocation?(sessionId: string): boolean;
  /** Stop watching; sessions keep running, to be adopted by the next start. */
  close(): Promise<void>;
}
