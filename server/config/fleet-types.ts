/**
 * The fleet file's shape: locations with their nodes, and the image catalog. Types only: the
 * schema that checks a file against them is fleet-schema.ts, the loader fleet.ts.
 */

export interface NodeConfig {
  id: string;
  /** The address game clients connect to; the game server binds it. */
  host: string;
  ports: { from: number; to: number };
  capacity: number;
  locked: boolean;
  /** Draining: no new sessions, live ones run to their end (the panel's drain, kept in the database, adds to it). */
  draining?: boolean;
  /** The node's Docker engine (runtime driver `docker`). */
  docker?: NodeDockerConfig;
}

export interface NodeDockerConfig {
  /** `unix:///run/docker.sock`, or `tcp://host:port` with `tls` (without: refused unless `insecure`). */
  engine: string;
  /**
   * Mutual TLS to a TCP engine (dockerd --tlsverify): PEM files of the CA that signed the engine's
   * certificate (which must name the engine's host) and of this service's client certificate and key.
   */
  tls?: { ca: string; cert: string; key: string };
  /**
   * Allow a plain TCP engine (no TLS): anyone who reaches its port owns the engine and every
   * session on it. Only for an engine on a network nothing else (no container) can reach.
   */
  insecure?: boolean;
  /** The host address published ports bind (default 0.0.0.0: every address of the node). */
  publishIp?: string;
}

export interface LocationConfig {
  id: string;
  /** Public IPs reported by /available-location. */
  ips: string[];
  nodes: NodeConfig[];
  /** Accounts allowed to use the location; absent means every account. */
  accounts?: string[];
}

export interface PortDeclaration {
  name: string;
  type: 'tcp' | 'udp';
  container: number;
}

export interface TagConfig {
  /**
   * Process runtime: executable and arguments; `node` means the service's own Node, and an entry
   * starting `./` is relative to the project root. Docker runtime (optional): the container's
   * command (CMD), before the request's args.
   */
  command?: string[];
  ports: PortDeclaration[];
  /** The Docker image of the tag and its limits (runtime driver `docker`). */
  docker?: TagDockerConfig;
  /**
   * When a session is `running`: `ports` (default) once every declared port is bound; `sdk` once
   * the game server says so through its SDK (`POST /ready`, spec/sdk/). Process runtime.
   */
  readiness?: 'ports' | 'sdk';
  /** With the SDK: a game server that said ready and then goes this long without a health ping is killed. */
  healthSeconds?: number;
}

export interface TagDockerConfig extends DockerLimits {
  /** Image reference on the node's engine, e.g. `studio/game:1.4`. */
  image: string;
  /** The game server's working directory: writable, kept after the end, its files are the artifacts (default /work). */
  workDir?: string;
}

/** What a container may use. Every Docker tag has them: its own, or the fleet's `runtime.docker` defaults. */
export interface DockerLimits {
  memoryMb?: number;
  cpus?: number;
  pids?: number;
  /**
   * Open files of one process (the nofile ulimit, soft and hard: default 1024). Without it a
   * container gets dockerd's own limit (20,000 on the test engines, 524,288 hard under systemd's
   * defaults), and pids x that is what one container could take of the host's file table.
   */
  openFiles?: number;
  /** `uid[:gid]` the game server runs as (never root; default 65534:65534, nobody). */
  user?: string;
  /** The size of the working directory, in MiB (default 1024; engines on this machine). */
  workMb?: number;
  /** How much of the working directory is copied out as artifacts at the end, in MiB (default 256). */
  artifactsMb?: number;
}

export interface ImageConfig {
  name: string;
  defaultTag: string;
  /** Usable by every account; otherwise only by `accounts`. */
  public: boolean;
  accounts?: string[];
  /** This image's session limits, over the fleet's (`runtime.limits`). */
  limits?: Partial<SessionLimits>;
  /** The environment names a caller may set, instead of the general rule (server/domain/env-names.ts). */
  allowedEnv?: string[];
  tags: Record<string, TagConfig>;
}

/** What one session may use (process runtime: cgroups and rlimits; the start deadline: every runtime). */
export interface SessionLimits {
  memoryMb: number;
  /** Processes and threads. */
  pids: number;
  /** Relative CPU weight; 1024 is one ordinary process's share. */
  cpuShares: number;
  /** Open files of one process (RLIMIT_NOFILE). */
  openFiles: number;
  /**
   * Open files of all the session's processes together (process runtime, sandboxed): past it the
   * game server is killed, exit 137. `openFiles` alone is per process, so pids x openFiles would
   * be a session's share of the host's file table (fs.file-max).
   */
  sessionOpenFiles: number;
  /** output.log and its one rotated predecessor together. */
  outputMb: number;
  /** How fast its output is read (process runtime): past it, in bursts of 8 seconds' worth, its writes to stdout and stderr block. */
  outputMbPerSecond: number;
  /** The largest file the game server may write. */
  fileMb: number;
  /** The work directory's size: past it (checked every second) the game server is killed, exit 137. */
  workDirMb: number;
  /**
   * Files, directories and other entries in the work directory (each costs an inode of the data
   * directory's filesystem, empty or not): past it the game server is killed, exit 137.
   */
  workDirFiles: number;
  /** A session not running this long after launch ends dead (start_failed). */
  startSeconds: number;
}

export interface FleetConfig {
  runtime: {
    driver: 'process' | 'simulated' | 'docker';
    /** Seconds between SIGTERM and SIGKILL when a session stops. */
    stopGraceSeconds: number;
    /**
     * The process runtime's sandbox (own uid, network namespace, filesystem view, limits):
     * `sandbox` (also spelled `auto` or `bwrap`) requires it and refuses to start without it;
     * `none` runs game servers as the service's user: trusted code on a developer machine only.
     */
    isolation: 'sandbox' | 'auto' | 'bwrap' | 'none';
    /** Process runtime: the uids (and gids) given to sessions, one each; instances on one host need ranges of their own. */
    uids?: { from: number; to: number };
    /** Limits of every session, unless its image sets its own. */
    limits?: Partial<SessionLimits>;
    /** How long ended sessions' directories (process) or containers (Docker), logs and artifacts are kept (default 24). */
    retentionHours?: number;
    /**
     * Process runtime, sandboxed: private networks (CIDRs) game servers may reach, which the egress
     * firewall refuses otherwise (egress-firewall.ts), e.g. a shared backend at 10.20.0.0/24.
     */
    allowedNetworks?: string[];
    /**
     * Process runtime, sandboxed: outbound connections (conntrack entries) one session may have
     * open at once (default 4096); past it new ones are refused (egress-firewall.ts).
     */
    outboundFlowsPerSession?: number;
    /**
     * Process runtime, sandboxed: new outbound connections one session may open per second (default
     * 100, in bursts of five seconds' worth); past it new ones are refused (egress-firewall.ts).
     */
    outboundFlowsPerSecond?: number;
    /** Process runtime: ended sessions' directories kept at most this many MiB in all; the oldest go first (default 10240). */
    retentionMb?: number;
    /** Process runtime: ended sessions' directories kept at most this many files and directories (inodes) in all; the oldest go first (default 1,000,000). */
    retentionFiles?: number;
    /** Docker runtime: the limits of every tag that does not set its own. */
    docker?: DockerLimits;
    /** Docker runtime: a node whose engine stays silent this long is gone for good; its sessions end `node_lost` (default 300). */
    nodeLostAfterSeconds?: number;
    /** Docker runtime: a registry pull before a start that takes longer fails the start (default 300; the start deadline still applies). */
    pullTimeoutSeconds?: number;
  };
  locations: LocationConfig[];
  images: ImageConfig[];
  /** Warm pools: game servers started ahead of need, ready but unallocated (server/domain/warm-pools.ts). */
  pools?: PoolConfig[];
}

/**
 * A warm pool of one (location, image, tag): `warm` game servers kept started and ready, each
 * with the pool's `env` and `args`; a start asking for other env or args is served cold.
 */
export interface PoolConfig {
  location: string;
  image: string;
  tag: string;
  warm: number;
  env?: Record<string, string>;
  args?: string[];
}
