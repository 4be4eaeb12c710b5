/**
 * Fleet files for the scenarios: one location sized for the scenario, and the echo image as
 * the project ships it. Written out here rather than derived from server/fleet.ts, so the
 * benchmark also runs against another checkout (BENCH_SERVICE_ROOT).
 */

export const LOCATION = 'bench';

/** The fleet file's JSON shape (server/fleet.ts FleetConfig). */
export interface Fleet {
  runtime: { driver: 'process' | 'simulated' | 'docker'; stopGraceSeconds: number; isolation: 'auto' | 'bwrap' | 'none' };
  locations: {
    id: string;
    ips: string[];
    nodes: {
      id: string;
      host: string;
      ports: { from: number; to: number };
      capacity: number;
      locked: boolean;
      docker?: { engine: string; publishIp?: string };
    }[];
  }[];
  images: {
    name: string;
    defaultTag: string;
    public: boolean;
    tags: Record<string, { command?: string[]; ports: { name: string; type: 'tcp' | 'udp'; container: number }[]; docker?: { image: string; memoryMb?: number; cpus?: number; pids?: number; user?: string } }>;
  }[];
}

/** The ports the sample echo server declares (as the service's default fleet does). */
export const ECHO_PORTS: { name: string; type: 'tcp' | 'udp'; container: number }[] = [
  { name: 'game', type: 'udp', container: 7777 },
  { name: 'query', type: 'tcp', container: 7778 },
];

export function fleet(options: {
  driver: 'simulated' | 'process';
  capacity: number;
  ports: { from: number; to: number };
}): Fleet {
  return {
    runtime: { driver: options.driver, stopGraceSeconds: 2, isolation: 'auto' },
    locations: [
      {
        id: LOCATION,
        ips: ['127.0.0.1'],
        nodes: [{ id: `${LOCATION}-1`, host: '127.0.0.1', ports: options.ports, capacity: options.capacity, locked: false }],
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
            ports: ECHO_PORTS,
          },
        },
      },
    ],
  };
}

/** A start request body for load.ts templates: a fresh id, and labels to filter on in B3. */
export const startBody = JSON.stringify({
  id: '{id}',
  location: LOCATION,
  image: 'echo',
  labels: { mode: 'm{n%2}', shard: 's{n%100}' },
});
