/**
 * Fleet files for the scenarios: one location sized for the scenario, and the echo image as the
 * project ships it (the service's default fleet), checked by the service's own fleet schema.
 */
import { defaultFleet, parseFleet } from '../server/config/fleet.js';
import type { FleetConfig, NodeDockerConfig, TagDockerConfig } from '../server/config/fleet-types.js';

export const LOCATION = 'bench';

const echo = defaultFleet.images.find((image) => image.name === 'echo')!;

export function fleet(options: {
  driver: FleetConfig['runtime']['driver'];
  capacity: number;
  ports: { from: number; to: number };
  /** The Docker runtime: the node's engine and the echo tag's container. */
  docker?: { node: NodeDockerConfig; tag: TagDockerConfig };
}): FleetConfig {
  const { docker } = options;
  const latest = echo.tags[echo.defaultTag]!;
  const bench: FleetConfig = {
    runtime: { driver: options.driver, stopGraceSeconds: 2, isolation: docker ? 'none' : 'auto' },
    locations: [
      {
        id: LOCATION,
        ips: ['127.0.0.1'],
        nodes: [
          { id: `${LOCATION}-1`, host: '127.0.0.1', ports: options.ports, capacity: options.capacity, locked: false, ...(docker ? { docker: docker.node } : {}) },
        ],
      },
    ],
    images: [{ ...echo, tags: { latest: docker ? { ports: latest.ports, docker: docker.tag } : latest } }],
  };
  return parseFleet(JSON.stringify(bench), 'the bench fleet');
}

/** A start request body for load.ts templates: a fresh id, and labels to filter on in B3. */
export const startBody = JSON.stringify({
  id: '{id}',
  location: LOCATION,
  image: 'echo',
  labels: { mode: 'm{n%2}', shard: 's{n%100}' },
});
