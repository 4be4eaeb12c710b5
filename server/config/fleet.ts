/**
 * The fleet: locations with their nodes, and the image catalog. Read from a JSON file
 * (FLEET_FILE, default <DATA_DIR>/fleet.json), created with the defaults below on first run and
 * validated on every start; a bad file stops the service with a message naming the problem.
 */
import AjvModule from 'ajv';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fleetSchema } from './fleet-schema.js';
import type { FleetConfig } from './fleet-types.js';
import { refusedEnvNames } from '../domain/env-names.js';
import { parseNetwork } from '../events/egress-guard.js';

const Ajv = AjvModule.default;

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

const validate = new Ajv({ allErrors: true }).compile<FleetConfig>(fleetSchema);

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
  const malformed = (fleet.runtime.allowedNetworks ?? []).filter((network) => !parseNetwork(network));
  if (malformed.length > 0) problems.push(`runtime.allowedNetworks: ${malformed.join(', ')} not CIDRs`);
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
        // The SDK is a socket of this machine bind-mounted into the container: an engine over TCP cannot mount it.
        const remote = fleet.locations.flatMap((location) => location.nodes).find((node) => node.docker && !node.docker.engine.startsWith('unix://'));
        if (remote) {
          problems.push(
            `image ${image.name}:${name}: readiness "sdk" and healthSeconds need the game-server SDK, which the docker runtime serves only to containers on engines of this machine (unix://); node ${remote.id}'s engine ${remote.docker!.engine} cannot mount a socket of this machine`,
          );
        }
      }
    }
  }
  problems.push(...poolProblems(fleet));
  if (fleet.runtime.driver === 'docker') {
    for (const node of fleet.locations.flatMap((l) => l.nodes)) {
      if (!node.docker) problems.push(`node ${node.id}: the docker runtime needs docker.engine`);
      else if (node.docker.engine.startsWith('tcp://') && !node.docker.tls && !node.docker.insecure) {
        problems.push(`node ${node.id}: ${node.docker.engine} is a plain TCP engine (whoever reaches it owns it); give it docker.tls (mutual TLS), or set docker.insecure to true on a network nothing else can reach`);
      } else if (node.docker.tls && !node.docker.engine.startsWith('tcp://')) {
        problems.push(`node ${node.id}: docker.tls is for tcp:// engines`);
      } else if (node.docker.engine.startsWith('tcp://') && !isHostAndPort(node.docker.engine.slice('tcp://'.length))) {
        problems.push(`node ${node.id}: ${node.docker.engine} is not tcp://host:port (a port from 1 to 65535)`);
      }
    }
  }
  return problems;
}

/** Pools name a location, image and tag of the fleet, once each; their game servers learn their session through the SDK. */
function poolProblems(fleet: FleetConfig): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const pool of fleet.pools ?? []) {
    const name = `pool ${pool.location}/${pool.image}:${pool.tag}`;
    if (seen.has(name)) problems.push(`${name} appears twice`);
    seen.add(name);
    if (!fleet.locations.some((location) => location.id === pool.location)) problems.push(`${name}: no location ${pool.location}`);
    const image = fleet.images.find((candidate) => candidate.name === pool.image);
    if (!image?.tags[pool.tag]) problems.push(`${name}: no image ${pool.image} with tag ${pool.tag} in the fleet file`);
    for (const env of refusedEnvNames(Object.keys(pool.env ?? {}), image?.allowedEnv)) problems.push(`${name}: env ${env} is not allowed`);
    // Docker: a warm container's SDK is a unix socket this service serves into it, so only on engines of this machine.
    const nodes = fleet.locations.find((location) => location.id === pool.location)?.nodes ?? [];
    if (fleet.runtime.driver === 'docker' && pool.warm > 0 && !nodes.some((node) => node.docker?.engine.startsWith('unix://'))) {
      problems.push(`${name}: warm pools on the docker runtime need a node whose engine is on this machine (unix://): a warm container learns its session through the SDK socket the service serves it`);
    }
  }
  return problems;
}

/** `host:port` or `[v6]:port`, as `new URL` will read it when the engine is opened. */
function isHostAndPort(authority: string): boolean {
  try {
    const url = new URL(`http://${authority}`);
    const port = Number(url.port);
    return url.hostname !== '' && url.pathname === '/' && Number.isInteger(port) && port >= 1 && port <= 65535;
  } catch {
    return false;
  }
}

export function parseFleet(text: string, source: string): FleetConfig {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new FleetConfigError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  const nulls = nullsIn(data, '');
  if (nulls.length > 0) throw new FleetConfigError(`${source}: ${nulls.map((path) => `${path} must not be null (leave it out)`).join('; ')}`);
  if (!validate(data)) {
    throw new FleetConfigError(`${source}: ${validate.errors!.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
  }
  const fleet = data;
  const problems = checkConsistency(fleet);
  if (problems.length > 0) throw new FleetConfigError(`${source}: ${problems.join('; ')}`);
  // Each tag carries its effective limits: the fleet's defaults under its own.
  for (const tag of fleet.images.flatMap((image) => Object.values(image.tags))) {
    if (tag.docker) tag.docker = { ...fleet.runtime.docker, ...tag.docker };
  }
  return fleet;
}

/** Where the data holds null: the schema's optional fields are `nullable` for JSONSchemaType only. */
function nullsIn(data: unknown, path: string): string[] {
  if (data === null) return [path || '/'];
  if (typeof data !== 'object') return [];
  return Object.entries(data).flatMap(([key, value]) => nullsIn(value, `${path}/${key}`));
}

/** Load the fleet file, writing the defaults there first when it does not exist. */
export function loadFleet(path: string, defaults: FleetConfig = defaultFleet): FleetConfig {
  if (!existsSync(path)) writeFileSync(path, JSON.stringify(defaults, null, 2) + '\n', { flag: 'wx' });
  return parseFleet(readFileSync(path, 'utf8'), path);
}

