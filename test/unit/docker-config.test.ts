/** The fleet file's Docker settings, Docker image references of pushed tags, and Docker's log stream format. */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { defaultFleet, FleetConfigError, parseFleet } from '../../server/config/fleet.js';
import { dockerImageRef } from '../../server/domain/catalog.js';
import type { FleetConfig } from '../../server/config/fleet-types.js';
import { Demultiplexer } from '../../server/runtime/docker/container-logs.js';
import { engineOptions, type Engine } from '../../server/runtime/docker/engine-client.js';
import { namesRegistry, pullImage } from '../../server/runtime/docker/image-pull.js';

function dockerFleet(change: (fleet: FleetConfig) => void = () => {}): FleetConfig {
  const fleet = structuredClone(defaultFleet);
  fleet.runtime.driver = 'docker';
  for (const [i, location] of fleet.locations.entries()) {
    for (const node of location.nodes) node.docker = i === 0 ? { engine: 'unix:///run/docker.sock' } : { engine: 'tcp://10.0.0.5:2375', insecure: true };
  }
  const tag = fleet.images[0]!.tags.latest!;
  fleet.images[0]!.tags.latest = { ports: tag.ports, docker: { image: 'studio/echo:1.4', memoryMb: 256, cpus: 0.5, pids: 128 } };
  change(fleet);
  return fleet;
}

const parse = (fleet: FleetConfig) => parseFleet(JSON.stringify(fleet), 'fleet.json');

describe('fleet file: the docker runtime', () => {
  it('accepts engines on nodes and images with limits on tags; the process fleet stays valid', () => {
    expect(parse(dockerFleet()).runtime.driver).toBe('docker');
    expect(parse(defaultFleet)).toEqual(defaultFleet);
  });

  it('names what is missing or wrong', () => {
    expect(() => parse(dockerFleet((f) => delete f.locations[0]!.nodes[0]!.docker))).toThrow(/node local-a-1: the docker runtime needs docker.engine/);
    expect(() => parse(dockerFleet((f) => delete f.images[0]!.tags.latest!.docker))).toThrow(/echo:latest: the docker runtime needs docker.image/);
    expect(() => parse(dockerFleet((f) => (f.locations[0]!.nodes[0]!.docker!.engine = 'docker.sock')))).toThrow(FleetConfigError);
    expect(() => parse(dockerFleet((f) => (f.images[0]!.tags.latest!.docker!.memoryMb = 0)))).toThrow(/memoryMb/);
    expect(() => parse(dockerFleet((f) => (f.runtime.driver = 'process')))).toThrow(/the process runtime needs a command/);
  });

  it('refuses a plain TCP engine unless it has TLS or is marked insecure', () => {
    expect(() => parse(dockerFleet((f) => delete f.locations[1]!.nodes[0]!.docker!.insecure))).toThrow(
      /node local-b-1: tcp:\/\/10.0.0.5:2375 is a plain TCP engine/,
    );
    const tls = { ca: '/etc/engine/ca.pem', cert: '/etc/engine/cert.pem', key: '/etc/engine/key.pem' };
    expect(() => parse(dockerFleet((f) => (f.locations[1]!.nodes[0]!.docker = { engine: 'tcp://10.0.0.5:2376', tls })))).not.toThrow();
    expect(() => parse(dockerFleet((f) => (f.locations[0]!.nodes[0]!.docker!.tls = tls)))).toThrow(/docker.tls is for tcp/);
  });

  it('refuses a tag without memory, pids or CPU limits unless the fleet has defaults; the tag’s own win', () => {
    const bare = (f: FleetConfig) => (f.images[0]!.tags.latest!.docker = { image: 'studio/echo:1.4', cpus: 2 });
    expect(() => parse(dockerFleet(bare))).toThrow(/echo:latest: no memoryMb, pids limit/);
    const fleet = parse(dockerFleet((f) => (bare(f), (f.runtime.docker = { memoryMb: 128, cpus: 1, pids: 64 }))));
    expect(fleet.images[0]!.tags.latest!.docker).toEqual({ image: 'studio/echo:1.4', memoryMb: 128, cpus: 2, pids: 64 });
  });

  it('takes a numeric, non-root user only', () => {
    const user = (value: string) => dockerFleet((f) => (f.images[0]!.tags.latest!.docker!.user = value));
    expect(parse(user('1000:1000')).images[0]!.tags.latest!.docker!.user).toBe('1000:1000');
    for (const bad of ['0', '0:0', 'root', '1000:0', '']) expect(() => parse(user(bad)), bad).toThrow(/user/);
  });

  it('names an engine address that is no tcp://host:port, and a TLS file that cannot be read, in one line', () => {
    for (const engine of ['tcp://h:99999', 'tcp://[::1:2375', 'tcp://10.0.0.5:0']) {
      expect(() => parse(dockerFleet((f) => (f.locations[1]!.nodes[0]!.docker!.engine = engine))), engine).toThrow(/is not tcp:\/\/host:port/);
    }
    expect(parse(dockerFleet((f) => (f.locations[1]!.nodes[0]!.docker!.engine = 'tcp://[fd00::5]:2376'))).runtime.driver).toBe('docker');
    const tls = { ca: '/nonexistent/ca.pem', cert: '/nonexistent/cert.pem', key: '/nonexistent/key.pem' };
    expect(() => engineOptions('tcp://10.0.0.5:2376', tls)).toThrow(FleetConfigError);
    expect(() => engineOptions('tcp://10.0.0.5:2376', tls)).toThrow(/docker.tls.ca \/nonexistent\/ca.pem of tcp:\/\/10.0.0.5:2376 cannot be read \(ENOENT\)/);
  });

  it('takes the game-server SDK (readiness "sdk", healthSeconds) where every engine is on this machine, and says why not where one is remote', () => {
    const local = (f: FleetConfig) => (f.locations[1]!.nodes[0]!.docker = { engine: 'unix:///run/docker2.sock' });
    for (const tag of [{ readiness: 'sdk' as const }, { healthSeconds: 5 }]) {
      const withSdk = (f: FleetConfig) => Object.assign(f.images[0]!.tags.latest!, tag);
      expect(parse(dockerFleet((f) => (local(f), withSdk(f)))).images[0]!.tags.latest).toMatchObject(tag);
      expect(() => parse(dockerFleet(withSdk))).toThrow(
        /echo:latest: readiness "sdk" and healthSeconds need the game-server SDK, which the docker runtime serves only to containers on engines of this machine \(unix:\/\/\); node local-b-1's engine tcp:\/\/10.0.0.5:2375 cannot mount a socket of this machine/,
      );
    }
  });

  it('takes warm pools in locations with an engine of this machine, and says why not where every engine is remote', () => {
    const pool = (location: string) => ({ location, image: 'echo', tag: 'latest', warm: 1 });
    expect(parse(dockerFleet((f) => (f.pools = [pool('local-a')]))).pools).toEqual([pool('local-a')]);
    expect(() => parse(dockerFleet((f) => (f.pools = [pool('local-b')])))).toThrow(
      /pool local-b\/echo:latest: warm pools on the docker runtime need a node whose engine is on this machine \(unix:\/\/\)/,
    );
    // Sized to none, a pool asks for nothing.
    expect(parse(dockerFleet((f) => (f.pools = [{ ...pool('local-b'), warm: 0 }]))).pools).toHaveLength(1);
  });

  it('maps engine addresses to dockerode options', () => {
    expect(engineOptions('unix:///run/x.sock')).toEqual({ socketPath: '/run/x.sock' });
    expect(engineOptions('tcp://10.0.0.5:2375')).toEqual({ host: '10.0.0.5', port: 2375, protocol: 'http' });
  });
});

describe('docker image references', () => {
  const image = dockerFleet().images[0]!;
  const tag = image.tags.latest!;
  it('uses the tag’s own image, and for a pushed tag the default tag’s repository', () => {
    expect(dockerImageRef(image, 'latest', tag)).toBe('studio/echo:1.4');
    expect(dockerImageRef(image, 'v2', tag)).toBe('studio/echo:v2');
    expect(dockerImageRef(image, 'v2', { ...tag, docker: { image: 'registry:5000/studio/echo' } })).toBe('registry:5000/studio/echo:v2');
    expect(dockerImageRef(image, 'v2', { ...tag, docker: undefined })).toBeUndefined();
  });
});

describe("docker's multiplexed log stream", () => {
  const frame = (stream: number, payload: string) => {
    const body = Buffer.from(payload);
    const header = Buffer.alloc(8);
    header[0] = stream;
    header.writeUInt32BE(body.length, 4);
    return Buffer.concat([header, body]);
  };
  const both = Buffer.concat([frame(1, 'out line\n'), frame(2, 'err line\n')]);

  it('demultiplexes a stream whose frames are split across chunks', async () => {
    const chunks = [both.subarray(0, 3), both.subarray(3, 12), both.subarray(12)];
    expect(await text(Readable.from(chunks).pipe(new Demultiplexer()))).toBe('out line\nerr line\n');
  });
});

describe('fleet consistency', () => {
  it('refuses two nodes on one host with overlapping port ranges', async () => {
    const { parseFleet, defaultFleet } = await import('../../server/config/fleet.js');
    const fleet = structuredClone(defaultFleet);
    fleet.locations[1]!.nodes[0]!.ports = { from: 20900, to: 21100 };
    expect(() => parseFleet(JSON.stringify(fleet), 'fleet.json')).toThrow(/local-a-1 and local-b-1 share host 127.0.0.1/);
    fleet.locations[1]!.nodes[0]!.host = '127.0.0.2';
    expect(() => parseFleet(JSON.stringify(fleet), 'fleet.json')).not.toThrow();
  });
});

describe('registry pulls', () => {
  it('pulls only images whose reference names a registry host', () => {
    for (const ref of ['registry.example.com/game:1.4', '10.231.0.99:5000/echo:remote', 'localhost/game:1', 'ghcr.io/studio/game@sha256:abc'])
      expect(namesRegistry(ref), ref).toBe(true);
    // Docker Hub's implied names are never fetched behind the operator's back.
    for (const ref of ['game:1', 'studio/game:1', 'session-host-echo:test']) expect(namesRegistry(ref), ref).toBe(false);
  });

  it('gives up on an engine that never answers the pull request, counting from the call', async () => {
    // A stalled engine: its answer to the pull request never comes (no headers, no stream).
    const stalled = { streams: { pull: () => new Promise(() => {}) } } as unknown as Engine;
    await expect(pullImage(stalled, '10.0.0.9:5000/game:1', 50)).rejects.toThrow(/no pull of 10.0.0.9:5000\/game:1 within/);
  });
});
