/**
 * The fleet file's JSON Schema, typed against the fleet's TypeScript types (fleet-types.ts) with
 * Ajv's JSONSchemaType: a field added to a type without its schema (or the other way round) does
 * not compile. Optional fields are `nullable` only because JSONSchemaType asks for it; the loader
 * refuses nulls (fleet.ts). Rules a schema cannot say are in fleet.ts's consistency check.
 */
import type { JSONSchemaType } from 'ajv';
import type {
  DockerLimits,
  FleetConfig,
  ImageConfig,
  LocationConfig,
  NodeConfig,
  NodeDockerConfig,
  PoolConfig,
  PortDeclaration,
  SessionLimits,
  TagConfig,
  TagDockerConfig,
} from './fleet-types.js';

const id = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' } as const;
const port = { type: 'integer', minimum: 1, maximum: 65535 } as const;
const names = { type: 'array', items: { type: 'string' }, nullable: true } as const;
const range = (min: number, max: number) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['from', 'to'],
    properties: { from: { type: 'integer', minimum: min, maximum: max }, to: { type: 'integer', minimum: min, maximum: max } },
  }) as const;

const limits = {
  type: 'object',
  additionalProperties: false,
  required: [],
  nullable: true,
  properties: {
    memoryMb: { type: 'integer', minimum: 16, nullable: true },
    pids: { type: 'integer', minimum: 4, nullable: true },
    cpuShares: { type: 'integer', minimum: 2, maximum: 262144, nullable: true },
    openFiles: { type: 'integer', minimum: 16, nullable: true },
    sessionOpenFiles: { type: 'integer', minimum: 64, nullable: true },
    outputMb: { type: 'number', exclusiveMinimum: 0, nullable: true },
    outputMbPerSecond: { type: 'number', exclusiveMinimum: 0, nullable: true },
    fileMb: { type: 'number', exclusiveMinimum: 0, nullable: true },
    workDirMb: { type: 'number', exclusiveMinimum: 0, nullable: true },
    workDirFiles: { type: 'integer', minimum: 16, maximum: 100000, nullable: true },
    startSeconds: { type: 'number', exclusiveMinimum: 0, maximum: 3600, nullable: true },
  },
} as const satisfies JSONSchemaType<Partial<SessionLimits>>;

// A user is numeric and never root: a name would depend on the image's /etc/passwd.
const dockerLimits: JSONSchemaType<DockerLimits>['properties'] = {
  memoryMb: { type: 'integer', minimum: 6, nullable: true },
  cpus: { type: 'number', exclusiveMinimum: 0, nullable: true },
  pids: { type: 'integer', minimum: 1, nullable: true },
  openFiles: { type: 'integer', minimum: 16, maximum: 1048576, nullable: true },
  user: { type: 'string', pattern: '^[1-9][0-9]{0,9}(:[1-9][0-9]{0,9})?$', nullable: true },
  workMb: { type: 'integer', minimum: 16, maximum: 1048576, nullable: true },
  artifactsMb: { type: 'integer', minimum: 1, maximum: 1048576, nullable: true },
};

const nodeDocker: JSONSchemaType<NodeDockerConfig> = {
  type: 'object',
  additionalProperties: false,
  required: ['engine'],
  properties: {
    engine: { type: 'string', pattern: '^(unix:///.+|tcp://[^/]+:[0-9]+/?)$' },
    publishIp: { type: 'string', minLength: 1, nullable: true },
    insecure: { type: 'boolean', nullable: true },
    tls: {
      type: 'object',
      additionalProperties: false,
      required: ['ca', 'cert', 'key'],
      nullable: true,
      properties: { ca: { type: 'string', minLength: 1 }, cert: { type: 'string', minLength: 1 }, key: { type: 'string', minLength: 1 } },
    },
  },
};

const node: JSONSchemaType<NodeConfig> = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'host', 'ports', 'capacity', 'locked'],
  properties: {
    id,
    host: { type: 'string', minLength: 1 },
    ports: range(1, 65535),
    capacity: { type: 'integer', minimum: 0 },
    locked: { type: 'boolean' },
    draining: { type: 'boolean', nullable: true },
    docker: { ...nodeDocker, nullable: true },
  },
};

const location: JSONSchemaType<LocationConfig> = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'ips', 'nodes'],
  properties: {
    id,
    ips: { type: 'array', items: { type: 'string', minLength: 1 } },
    accounts: names,
    nodes: { type: 'array', minItems: 1, items: node },
  },
};

const portDeclaration: JSONSchemaType<PortDeclaration> = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type', 'container'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
    type: { type: 'string', enum: ['tcp', 'udp'] },
    container: port,
  },
};

const tagDocker: JSONSchemaType<TagDockerConfig> = {
  type: 'object',
  additionalProperties: false,
  required: ['image'],
  properties: {
    image: { type: 'string', pattern: '^[a-z0-9][a-z0-9._/:@-]*$' },
    workDir: { type: 'string', pattern: '^/.+', nullable: true },
    ...dockerLimits,
  },
};

const tag: JSONSchemaType<TagConfig> = {
  type: 'object',
  additionalProperties: false,
  required: ['ports'],
  properties: {
    command: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, nullable: true },
    readiness: { type: 'string', enum: ['ports', 'sdk'], nullable: true },
    healthSeconds: { type: 'integer', minimum: 1, maximum: 3600, nullable: true },
    docker: { ...tagDocker, nullable: true },
    ports: { type: 'array', items: portDeclaration },
  },
};

const image: JSONSchemaType<ImageConfig> = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'defaultTag', 'public', 'tags'],
  properties: {
    name: id,
    defaultTag: { type: 'string', minLength: 1 },
    public: { type: 'boolean' },
    accounts: names,
    limits,
    allowedEnv: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_.-]{0,127}$' }, nullable: true },
    tags: { type: 'object', required: [], additionalProperties: tag },
  },
};

/** A pool of at most 1,000 warm game servers (each is a live process on its node). */
const pool: JSONSchemaType<PoolConfig> = {
  type: 'object',
  additionalProperties: false,
  required: ['location', 'image', 'tag', 'warm'],
  properties: {
    location: id,
    image: id,
    tag: { type: 'string', minLength: 1 },
    warm: { type: 'integer', minimum: 0, maximum: 1000 },
    env: { type: 'object', required: [], additionalProperties: { type: 'string' }, nullable: true },
    args: { type: 'array', items: { type: 'string' }, nullable: true },
  },
};

export const fleetSchema: JSONSchemaType<FleetConfig> = {
  type: 'object',
  additionalProperties: false,
  required: ['runtime', 'locations', 'images'],
  properties: {
    runtime: {
      type: 'object',
      additionalProperties: false,
      required: ['driver', 'stopGraceSeconds', 'isolation'],
      properties: {
        driver: { type: 'string', enum: ['process', 'simulated', 'docker'] },
        retentionHours: { type: 'number', minimum: 0, nullable: true },
        allowedNetworks: { type: 'array', items: { type: 'string' }, maxItems: 1000, nullable: true },
        outboundFlowsPerSession: { type: 'integer', minimum: 16, maximum: 1048576, nullable: true },
        outboundFlowsPerSecond: { type: 'integer', minimum: 1, maximum: 1000000, nullable: true },
        retentionMb: { type: 'number', minimum: 0, nullable: true },
        retentionFiles: { type: 'integer', minimum: 0, nullable: true },
        stopGraceSeconds: { type: 'number', minimum: 0, maximum: 3600 },
        isolation: { type: 'string', enum: ['sandbox', 'auto', 'bwrap', 'none'] },
        uids: { ...range(1000, 4294967294), nullable: true },
        limits,
        docker: { type: 'object', additionalProperties: false, required: [], properties: dockerLimits, nullable: true },
        nodeLostAfterSeconds: { type: 'number', minimum: 1, nullable: true },
        pullTimeoutSeconds: { type: 'number', minimum: 1, nullable: true },
      },
    },
    locations: { type: 'array', items: location },
    images: { type: 'array', items: image },
    pools: { type: 'array', items: pool, nullable: true },
  },
};
