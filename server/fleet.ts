/**
 * The fleet: locations with their nodes, and the image catalog. Read from a JSON file
 * (FLEET_FILE, default <DATA_DIR>/fleet.json), created with the defaults below on first run and
 * validated on every start; a bad file stops the service with a message naming the problem.
 */
import AjvModule from 'ajv';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const Ajv = AjvModule.default;

export interface NodeConfig {
  id: string;
  /** The address game clients connect to; the game server binds it. */
  host: string;
  ports: { from: number; to: number };
  capacity: number;
  locked: boolean;
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
  openFiles: number;
  /** output.log and its one rotated predecessor together. */
  outputMb: number;
  /** The largest file the game server may write. */
  fileMb: number;
  /** The work directory's size: past it (checked every second) the game server is killed, exit 137. */
  workDirMb: number;
  /** A session not running this long after launch ends dead (start_failed). */
  startSeconds: number;
}

export const defaultLimits: SessionLimits = { memoryMb: 1024, pids: 256, cpuShares: 1024, openFiles: 1024, outputMb: 64, fileMb: 1024, workDirMb: 2048, startSeconds: 60 };

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
    /** Docker runtime: the limits of every tag that does not set its own. */
    docker?: DockerLimits;
  };
  locations: LocationConfig[];
  images: ImageConfig[];
}

export const projectRoot = resolve(import.meta.dirname, '..');

export const defaultFleet: FleetConfig = {
  runtime: { driver: 'process', stopGraceSeconds: 10, isolation: 'sandbox' },
  locations: [
    {
      id: 'local-a',
      ips: ['127.0.0.1'],
      nodes: [{ id: 'local-a-1', host: '127.0.0.1', ports: { from: 20000, to: 20999 }, capacity: 32, locked: false }],
    },
    {
      id: 'local-b',
      ips: ['127.0.0.1'],
      nodes: [{ id: 'local-b-1', host: '127.0.0.1', ports: { from: 21000, to: 21999 }, capacity: 32, locked: false }],
    },
  ],
  images: [
    {
      name: 'echo',
      defaultTag: 'latest',
      public: true,
      tags: {
        latest: {
          command: ['node', './server/sample/echo-server.mjs'],
          ports: [
            { name: 'game', type: 'udp', container: 7777 },
            { name: 'query', type: 'tcp', container: 7778 },
          ],
        },
      },
    },
  ],
};

/** The sandbox's default: simulated sessions on documentation-range addresses (RFC 5737). */
export const sandboxFleet: FleetConfig = {
  ...defaultFleet,
  runtime: { ...defaultFleet.runtime, driver: 'simulated' },
  locations: [
    { id: 'local-a', ips: ['192.0.2.10'], nodes: [{ id: 'local-a-1', host: '192.0.2.10', ports: { from: 20000, to: 20999 }, capacity: 32, locked: false }] },
    { id: 'local-b', ips: ['198.51.100.10'], nodes: [{ id: 'local-b-1', host: '198.51.100.10', ports: { from: 20000, to: 20999 }, capacity: 32, locked: false }] },
  ],
};

const id = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' };
const limits = {
  type: 'object',
  additionalProperties: false,
  properties: {
    memoryMb: { type: 'integer', minimum: 16 },
    pids: { type: 'integer', minimum: 4 },
    cpuShares: { type: 'integer', minimum: 2, maximum: 262144 },
    openFiles: { type: 'integer', minimum: 16 },
    outputMb: { type: 'number', exclusiveMinimum: 0 },
    fileMb: { type: 'number', exclusiveMinimum: 0 },
    workDirMb: { type: 'number', exclusiveMinimum: 0 },
    startSeconds: { type: 'number', exclusiveMinimum: 0, maximum: 3600 },
  },
};
const port = { type: 'integer', minimum: 1, maximum: 65535 };
// A user is numeric and never root: a name would depend on the image's /etc/passwd.
const dockerLimits = {
  memoryMb: { type: 'integer', minimum: 6 },
  cpus: { type: 'number', exclusiveMinimum: 0 },
  pids: { type: 'integer', minimum: 1 },
  user: { type: 'string', pattern: '^[1-9][0-9]{0,9}(:[1-9][0-9]{0,9})?$' },
  workMb: { type: 'integer', minimum: 16, maximum: 1048576 },
  artifactsMb: { type: 'integer', minimum: 1, maximum: 1048576 },
} as const;

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['runtime', 'locations', 'images'],
  properties: {
    runtime: {
      type: 'object',
      additionalProperties: false,
      required: ['driver', 'stopGraceSeconds', 'isolation'],
      properties: {
        driver: { enum: ['process', 'simulated', 'docker'] },
        retentionHours: { type: 'number', minimum: 0 },
        stopGraceSeconds: { type: 'number', minimum: 0, maximum: 3600 },
        isolation: { enum: ['sandbox', 'auto', 'bwrap', 'none'] },
        uids: {
          type: 'object',
          additionalProperties: false,
          required: ['from', 'to'],
          properties: { from: { type: 'integer', minimum: 1000, maximum: 4294967294 }, to: { type: 'integer', minimum: 1000, maximum: 4294967294 } },
        },
        limits,
        docker: { type: 'object', additionalProperties: false, properties: dockerLimits },
      },
    },
    locations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'ips', 'nodes'],
        properties: {
          id,
          ips: { type: 'array', items: { type: 'string', minLength: 1 } },
          accounts: { type: 'array', items: { type: 'string' } },
          nodes: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['id', 'host', 'ports', 'capacity', 'locked'],
              properties: {
                id,
                host: { type: 'string', minLength: 1 },
                ports: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['from', 'to'],
                  properties: { from: port, to: port },
                },
                capacity: { type: 'integer', minimum: 0 },
                locked: { type: 'boolean' },
                docker: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['engine'],
                  properties: {
                    engine: { type: 'string', pattern: '^(unix:///.+|tcp://[^/]+:[0-9]+/?)$' },
                    publishIp: { type: 'string', minLength: 1 },
                    insecure: { type: 'boolean' },
                    tls: {
                      type: 'object',
                      additionalProperties: false,
                      required: ['ca', 'cert', 'key'],
                      properties: { ca: { type: 'string', minLength: 1 }, cert: { type: 'string', minLength: 1 }, key: { type: 'string', minLength: 1 } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    images: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'defaultTag', 'public', 'tags'],
        properties: {
          name: id,
          defaultTag: { type: 'string', minLength: 1 },
          public: { type: 'boolean' },
          accounts: { type: 'array', items: { type: 'string' } },
          limits,
          allowedEnv: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,127}$' } },
          tags: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              additionalProperties: false,
              required: ['ports'],
              properties: {
                command: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
                readiness: { enum: ['ports', 'sdk'] },
                healthSeconds: { type: 'integer', minimum: 1, maximum: 3600 },
                docker: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['image'],
                  properties: {
                    image: { type: 'string', pattern: '^[a-z0-9][a-z0-9._/:@-]*$' },
                    ...dockerLimits,
                    workDir: { type: 'string', pattern: '^/.+' },
                  },
                },
                ports: {
                  type: 'array',
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['name', 'type', 'container'],
                    properties: {
                      name: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
                      type: { enum: ['tcp', 'udp'] },
                      container: port,
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true }).compile(schema);

export class FleetConfigError extends Error {}

/** Rules a schema cannot say: unique ids, sane port ranges, a default tag that exists. */
function checkConsistency(fleet: FleetConfig): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const location of fleet.locations) {
    if (seen.has(location.id)) problems.push(`location ${location.id} appears twice`);
    seen.add(location.id);
    for (const node of location.nodes) {
      if (seen.has(node.id)) problems.push(`node id ${node.id} is not unique`);
      seen.add(node.id);
      if (node.ports.to < node.ports.from) problems.push(`node ${node.id}: ports.to is below ports.from`);
    }
  }
  // Nodes on one host share its ports: their ranges must not overlap, or sessions would collide.
  const nodes = fleet.locations.flatMap((location) => location.nodes);
  for (const [i, a] of nodes.entries()) {
    for (const b of nodes.slice(i + 1)) {
      if (a.host === b.host && a.ports.from <= b.ports.to && b.ports.from <= a.ports.to) {
        problems.push(`nodes ${a.id} and ${b.id} share host ${a.host} and overlapping port ranges`);
      }
    }
  }
  const uids = fleet.runtime.uids;
  if (uids && uids.to < uids.from) problems.push('runtime.uids: to is below from');
  const images = new Set<string>();
  for (const image of fleet.images) {
    if (images.has(image.name)) problems.push(`image ${image.name} appears twice`);
    images.add(image.name);
    if (!image.tags[image.defaultTag]) problems.push(`image ${image.name}: default tag ${image.defaultTag} is not among its tags`);
    for (const [name, tag] of Object.entries(image.tags)) {
      if (fleet.runtime.driver === 'docker' && !tag.docker) problems.push(`image ${image.name}:${name}: the docker runtime needs docker.image`);
      if (fleet.runtime.driver === 'docker' && tag.docker) {
        const limits = { ...fleet.runtime.docker, ...tag.docker };
        const missing = (['memoryMb', 'cpus', 'pids'] as const).filter((limit) => limits[limit] === undefined);
        if (missing.length > 0) {
          problems.push(`image ${image.name}:${name}: no ${missing.join(', ')} limit (set it on the tag's docker or in runtime.docker)`);
        }
      }
      if (fleet.runtime.driver === 'process' && !tag.command) problems.push(`image ${image.name}:${name}: the process runtime needs a command`);
      if (fleet.runtime.driver === 'docker' && (tag.readiness === 'sdk' || tag.healthSeconds)) {
        problems.push(`image ${image.name}:${name}: the game-server SDK (readiness "sdk", healthSeconds) is served by the process runtime only so far`);
      }
    }
  }
  if (fleet.runtime.driver === 'docker') {
    for (const node of fleet.locations.flatMap((l) => l.nodes)) {
      if (!node.docker) problems.push(`node ${node.id}: the docker runtime needs docker.engine`);
      else if (node.docker.engine.startsWith('tcp://') && !node.docker.tls && !node.docker.insecure) {
        problems.push(`node ${node.id}: ${node.docker.engine} is a plain TCP engine (whoever reaches it owns it); give it docker.tls (mutual TLS), or set docker.insecure to true on a network nothing else can reach`);
      } else if (node.docker.tls && !node.docker.engine.startsWith('tcp://')) {
        problems.push(`node ${node.id}: docker.tls is for tcp:// engines`);
      }
    }
  }
  return problems;
}

export function parseFleet(text: string, source: string): FleetConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new FleetConfigError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  if (!validate(data)) {
    throw new FleetConfigError(`${source}: ${validate.errors!.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
  }
  const fleet = data as FleetConfig;
  const problems = checkConsistency(fleet);
  if (problems.length > 0) throw new FleetConfigError(`${source}: ${problems.join('; ')}`);
  // Each tag carries its effective limits: the fleet's defaults under its own.
  for (const tag of fleet.images.flatMap((image) => Object.values(image.tags))) {
    if (tag.docker) tag.docker = { ...fleet.runtime.docker, ...tag.docker };
  }
  return fleet;
}

/** Load the fleet file, writing the defaults there first when it does not exist. */
export function loadFleet(path: string, defaults: FleetConfig = defaultFleet): FleetConfig {
  if (!existsSync(path)) writeFileSync(path, JSON.stringify(defaults, null, 2) + '\n', { flag: 'wx' });
  return parseFleet(readFileSync(path, 'utf8'), path);
}

/**
 * The Docker image reference of `tag` of `image`: the tag's own, or for a tag registered by a
 * registry push (which runs as the default tag) the default tag's repository with the pushed tag.
 */
export function dockerImageRef(image: ImageConfig, tagName: string, tag: TagConfig): string | undefined {
  if (!tag.docker) return undefined;
  if (image.tags[tagName]) return tag.docker.image;
  const ref = tag.docker.image.replace(/@.*$/, '');
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  return `${colon > slash ? ref.slice(0, colon) : ref}:${tagName}`;
}

/** An image's session limits: its own over the fleet's over the defaults. */
export function limitsOf(fleet: FleetConfig, image: ImageConfig): SessionLimits {
  return { ...defaultLimits, ...fleet.runtime.limits, ...image.limits };
}

/** The command of a tag as an executable path and arguments. */
export function resolveCommand(command: readonly string[]): { file: string; args: string[] } {
  const [first, ...rest] = command as [string, ...string[]];
  const file = first === 'node' ? process.execPath : first;
  const fromRoot = (entry: string) => (entry.startsWith('./') ? resolve(projectRoot, entry) : entry);
  return { file: fromRoot(file), args: rest.map(fromRoot) };
}
